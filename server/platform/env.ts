import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseImapUrl } from './imap/imap-url';

// The only reader of process.env. Everything else receives an Env.

export const ROLES = ['web', 'worker', 'smtp'] as const;
export type Role = (typeof ROLES)[number];

/** What Fastify's trustProxy gets: no proxy, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

const TRUST_PROXY_HELP =
  'set the number of proxies in front of InboxPulse (usually 1) or their addresses, such as 10.0.0.0/8,127.0.0.1';
// proxy-addr's names for address ranges.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !ipaddr.isValid(address)) return false;
  if (prefix === undefined) return true;
  const bits = ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) ? Number(prefix) <= bits : ipaddr.IPv4.isValidFourPartDecimal(prefix);
}

/**
 * `true` is refused: it trusts the left-most X-Forwarded-For entry, which any client writes itself, so
 * every per-IP limit could be escaped. Only the hops we know of are trusted.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): TrustProxy => {
    const lower = value.toLowerCase();
    if (lower === 'false' || lower === '' || lower === '0') return false;
    if (lower === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: `"true" would trust the left-most X-Forwarded-For entry, which any client writes itself (escaping every per-IP limit); ${TRUST_PROXY_HELP}`,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `"${bad.join(', ') || value}" is neither a number of proxies nor IP addresses or CIDR ranges; ${TRUST_PROXY_HELP}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Host names (no ports) this server answers for besides APP_URL's. */
const allowedHosts = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const hosts = value
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter(Boolean);
    const bad = hosts.filter((h) => !HOST_NAME.test(h) && !ipaddr.isValid(h));
    if (bad.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `"${bad.join(', ')}" is not a host name or IP address (names only: no scheme, no port)`,
      });
    return hosts;
  });

/**
 * A third-party API's base URL (scheme, host, optional port; no path): the real one by default, a
 * loopback server in tests. `{name}` placeholders stand for a part the user's account decides (a
 * Mailchimp datacenter, a Shopify store), filled in per request.
 */
const apiBaseUrl = (name: string, realUrl: string) =>
  z
    .string()
    .default(realUrl)
    .refine((value) => {
      const filled = value.replace(/\{[a-z]+\}/g, 'x');
      return URL.canParse(filled) && /^https?:$/.test(new URL(filled).protocol);
    }, `${name} must be an http(s) URL such as ${realUrl}`)
    .transform((url) => url.replace(/\/+$/, ''));

/** A Stripe price id (price_...), as the dashboard shows it. */
const stripePriceId = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^price_[A-Za-z0-9]+$/, `${name} must be a Stripe price id such as price_1Abc...`)
    .optional();

/** Every variable Stripe mode needs: all or none of them. */
export const STRIPE_VARIABLES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_STARTER_MONTHLY',
  'STRIPE_PRICE_PROFESSIONAL_MONTHLY',
  'STRIPE_PRICE_PROFESSIONAL_ANNUAL',
] as const;

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  APP_URL: z.string().url('APP_URL must be a URL such as https://app.example.com').optional(),
  ROLES: z
    .string()
    .default('web,worker,smtp')
    .transform((s) =>
      s
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ROLES, { error: `ROLES may only list ${ROLES.join(', ')}` })).min(1)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('InboxPulse <no-reply@inboxpulse.localhost>'),
  TRUST_PROXY: trustProxy,
  ALLOWED_HOSTS: allowedHosts,
  // Comma-separated host[:port] list; the system's resolvers when unset.
  DNS_SERVERS: z.string().optional(),
  // An OpenAI-compatible endpoint for the chat assistant; without all three it answers from retrieval.
  CHAT_LLM_URL: z.string().url('CHAT_LLM_URL must be a URL such as https://api.openai.com/v1').optional(),
  CHAT_LLM_API_KEY: z.string().optional(),
  CHAT_LLM_MODEL: z.string().optional(),
  // Inbound mail: the SMTP listener (smtp role) receives inbox-test messages and DMARC reports for this domain.
  INBOUND_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
      'INBOUND_DOMAIN must be a domain name such as inbox.example.com',
    )
    .default('inbox.localhost'),
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SMTP_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  // PEM files; when both are set the listener offers STARTTLS.
  SMTP_TLS_CERT: z.string().optional(),
  SMTP_TLS_KEY: z.string().optional(),
  // An operator mailbox that also receives DMARC reports, polled every 5 minutes: imaps://user:password@host:993/INBOX
  DMARC_IMAP_URL: z
    .string()
    .superRefine((url, ctx) => {
      try {
        parseImapUrl(url, 'DMARC_IMAP_URL');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .optional(),
  // Inbox placement tests. The seed network (JSON or YAML): seed mailboxes polled over IMAP for test messages.
  SEED_NETWORK_FILE: z.string().optional(),
  // How long seeds are searched after the test message arrives; seeds not found by then are "missing".
  PLACEMENT_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  // A SpamAssassin spamd (host:port, port 783 by default) whose score and rules join the message analysis.
  SPAMD_HOST: z
    .string()
    .regex(
      /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/,
      'SPAMD_HOST must be host or host:port, such as 127.0.0.1:783',
    )
    .optional(),
  // RDAP for domains' registrar and age: a bootstrap service that redirects to each TLD's registry, or a registry's
  // server.
  RDAP_BASE_URL: z
    .string()
    .url('RDAP_BASE_URL must be a URL such as https://rdap.org')
    .regex(/^https?:\/\//, 'RDAP_BASE_URL must be an https:// URL such as https://rdap.org')
    .default('https://rdap.org'),
  // Alert SMS through Twilio's REST API; without the three credentials no SMS is sent.
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_FROM: z.string().optional(),
  TWILIO_BASE_URL: z
    .string()
    .url('TWILIO_BASE_URL must be a URL such as https://api.twilio.com')
    .default('https://api.twilio.com')
    .transform((url) => url.replace(/\/$/, '')),
  // ESP plugins' APIs (docs/decisions/028): the real ones unless a test points them at loopback servers.
  SENDGRID_API_BASE_URL: apiBaseUrl('SENDGRID_API_BASE_URL', 'https://api.sendgrid.com'),
  MAILCHIMP_API_BASE_URL: apiBaseUrl('MAILCHIMP_API_BASE_URL', 'https://{dc}.api.mailchimp.com'),
  KLAVIYO_API_BASE_URL: apiBaseUrl('KLAVIYO_API_BASE_URL', 'https://a.klaviyo.com'),
  MAILGUN_API_BASE_URL: apiBaseUrl('MAILGUN_API_BASE_URL', 'https://api.mailgun.net'),
  MAILGUN_EU_API_BASE_URL: apiBaseUrl('MAILGUN_EU_API_BASE_URL', 'https://api.eu.mailgun.net'),
  SMTP2GO_API_BASE_URL: apiBaseUrl('SMTP2GO_API_BASE_URL', 'https://api.smtp2go.com'),
  CONSTANTCONTACT_API_BASE_URL: apiBaseUrl('CONSTANTCONTACT_API_BASE_URL', 'https://api.cc.email'),
  HUBSPOT_API_BASE_URL: apiBaseUrl('HUBSPOT_API_BASE_URL', 'https://api.hubapi.com'),
  BREVO_API_BASE_URL: apiBaseUrl('BREVO_API_BASE_URL', 'https://api.brevo.com'),
  ACTIVECAMPAIGN_API_BASE_URL: apiBaseUrl('ACTIVECAMPAIGN_API_BASE_URL', 'https://{host}'),
  SPARKPOST_API_BASE_URL: apiBaseUrl('SPARKPOST_API_BASE_URL', 'https://api.sparkpost.com'),
  SPARKPOST_EU_API_BASE_URL: apiBaseUrl('SPARKPOST_EU_API_BASE_URL', 'https://api.eu.sparkpost.com'),
  OMNISEND_API_BASE_URL: apiBaseUrl('OMNISEND_API_BASE_URL', 'https://api.omnisend.com'),
  SHOPIFY_API_BASE_URL: apiBaseUrl('SHOPIFY_API_BASE_URL', 'https://{host}'),
  GETRESPONSE_API_BASE_URL: apiBaseUrl('GETRESPONSE_API_BASE_URL', 'https://api.getresponse.com'),
  // Google Postmaster Tools (docs/decisions/030): an OAuth client of type "Web application" whose
  // authorized redirect URI is APP_URL + /oauth/google/callback. Without both, Google sign-in is off (the self-hosted
  // default).
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().optional(),
  // Google's endpoints: the real ones unless a test points them at loopback servers.
  GOOGLE_ACCOUNTS_BASE_URL: apiBaseUrl('GOOGLE_ACCOUNTS_BASE_URL', 'https://accounts.google.com'),
  GOOGLE_OAUTH_TOKEN_BASE_URL: apiBaseUrl('GOOGLE_OAUTH_TOKEN_BASE_URL', 'https://oauth2.googleapis.com'),
  GOOGLE_POSTMASTER_API_BASE_URL: apiBaseUrl(
    'GOOGLE_POSTMASTER_API_BASE_URL',
    'https://gmailpostmastertools.googleapis.com',
  ),
  // Billing (docs/decisions/033): Stripe mode when STRIPE_SECRET_KEY is set (then every STRIPE_* below
  // is required); otherwise self-hosted billing, where plan changes take effect at once.
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'STRIPE_SECRET_KEY must be a Stripe secret key such as sk_live_...')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .trim()
    .regex(
      /^pk_(test|live)_[A-Za-z0-9]+$/,
      'STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key such as pk_live_...',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_...)")
    .optional(),
  STRIPE_PRICE_STARTER_MONTHLY: stripePriceId('STRIPE_PRICE_STARTER_MONTHLY'),
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: stripePriceId('STRIPE_PRICE_PROFESSIONAL_MONTHLY'),
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: stripePriceId('STRIPE_PRICE_PROFESSIONAL_ANNUAL'),
  // Stripe's API: the real one unless a test points the SDK at a loopback server.
  STRIPE_API_BASE: apiBaseUrl('STRIPE_API_BASE', 'https://api.stripe.com'),
  // Outgoing webhooks: the first retry waits this long, each next one 4 times longer (30 s, 2 min, 8 min, 32 min).
  WEBHOOK_RETRY_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  // How long a webhook receiver has to answer (the documented 10 seconds).
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Tests only: addresses outgoing requests may reach although they are not public (the loopback receivers), and the CA
  // their certificates are signed with.
  OUTBOUND_ALLOW_ADDRESSES: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const addresses = value
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const bad = addresses.filter((a) => !ipaddr.isValid(a));
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `"${bad.join(', ')}" is not an IP address` });
      return addresses;
    }),
  OUTBOUND_CA_FILE: z.string().optional(),
  // Tests and operators: every plan's hourly limit of bearer (API key) requests, instead of the plans' own (ADR 026).
  API_RATE_LIMIT_OVERRIDE: z.coerce.number().int().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = Omit<z.infer<typeof EnvSchema>, 'APP_SECRET' | 'APP_URL'> & {
  APP_SECRET: string;
  /** The file in DATA_DIR that holds APP_SECRET when it was not given (the embedded quick start); start-up says where it is. */
  APP_SECRET_FILE?: string;
  APP_URL: string;
  /**
   * Every variable as given (blank ones left out), for settings files that name variables, such as
   * the seed network file's `env:NAME` passwords: their owners read them from here, not process.env.
   */
  VARIABLES: Readonly<Record<string, string>>;
};

/** Parses the environment once; fails fast with every problem listed. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(blanksRemoved);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  const secretProblem = missingServerSecret(blanksRemoved);
  if (secretProblem) lines.push(`  APP_SECRET: ${secretProblem}`);
  const stripeProblem = incompleteStripe(blanksRemoved);
  if (stripeProblem) lines.push(`  ${stripeProblem}`);
  if (!parsed.success || secretProblem || stripeProblem) throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  const env = parsed.data;
  // The allowlist opens private addresses to requests whose target a user chooses: never in production.
  if (env.NODE_ENV !== 'test' && (env.OUTBOUND_ALLOW_ADDRESSES.length > 0 || env.OUTBOUND_CA_FILE)) {
    throw new Error(
      'Invalid environment:\n  OUTBOUND_ALLOW_ADDRESSES, OUTBOUND_CA_FILE: for tests only (NODE_ENV=test)',
    );
  }
  const secretFile = env.APP_SECRET ? undefined : path.resolve(env.DATA_DIR, SECRET_FILE_NAME);
  return {
    ...env,
    VARIABLES: blanksRemoved as Record<string, string>,
    APP_SECRET: env.APP_SECRET ?? readOrCreateSecret(secretFile!),
    ...(secretFile ? { APP_SECRET_FILE: secretFile } : {}),
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  };
}

/** Stripe mode half set up would take money it cannot account for (no webhook) or fail at checkout: all or nothing. */
function incompleteStripe(variables: Record<string, string | undefined>): string | undefined {
  const given = STRIPE_VARIABLES.filter((name) => variables[name]);
  if (given.length === 0 || given.length === STRIPE_VARIABLES.length) return undefined;
  const missing = STRIPE_VARIABLES.filter((name) => !variables[name]);
  return `${missing.join(', ')}: required with ${given.join(', ')} (Stripe billing needs every STRIPE_* variable; leave them all unset for self-hosted billing)`;
}

const SECRET_FILE_NAME = 'app-secret';

/**
 * With DATABASE_URL (a server deployment) the key to the secrets stored in the database must not sit
 * beside it, in a DATA_DIR that backups and images carry along, and every process needs the same one:
 * it comes from the environment. Only the embedded quick start generates its own.
 */
function missingServerSecret(variables: Record<string, string | undefined>): string | undefined {
  if (!variables.DATABASE_URL || variables.APP_SECRET) return undefined;
  const file = path.resolve(variables.DATA_DIR ?? EnvSchema.shape.DATA_DIR.parse(undefined), SECRET_FILE_NAME);
  const existing = existsSync(file)
    ? ` This installation already has one in ${file}: set APP_SECRET to its content (APP_SECRET=$(cat ${file})), or what it encrypted can no longer be read.`
    : '';
  return (
    'required with DATABASE_URL: the key to the secrets stored in the database must come from the environment, not from a file beside the data, ' +
    `and every process needs the same one. Generate one with \`openssl rand -hex 32\` and give it to every process.${existing}`
  );
}

/**
 * The start-up line of the embedded quick start, whose APP_SECRET is the generated file in DATA_DIR:
 * where the key is, and that a copy of DATA_DIR carries it with the secrets it encrypts.
 */
export function appSecretNotice(env: Pick<Env, 'APP_SECRET_FILE'>): string | undefined {
  if (!env.APP_SECRET_FILE) return undefined;
  return (
    `APP_SECRET is the key generated into ${env.APP_SECRET_FILE}: a backup of DATA_DIR carries it along with the secrets it encrypts. ` +
    "To keep them apart, set APP_SECRET in the environment to that file's content and remove the file"
  );
}

/** A first run without APP_SECRET (the embedded quick start) generates one and keeps it beside the data, so restarts reuse it. */
function readOrCreateSecret(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
