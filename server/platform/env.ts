import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseImapUrl } from './imap/imap-url';

// The only reader of process.env. Everything else receives an Env.

export const ROLES = ['web', 'worker', 'smtp'] as const;
export type Role = (typeof ROLES)[number];

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

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
  TRUST_PROXY: booleanFlag,
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
    .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'INBOUND_DOMAIN must be a domain name such as inbox.example.com')
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
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/, 'SPAMD_HOST must be host or host:port, such as 127.0.0.1:783')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = Omit<z.infer<typeof EnvSchema>, 'APP_SECRET' | 'APP_URL'> & {
  APP_SECRET: string;
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
  if (!parsed.success) throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  const env = parsed.data;
  return {
    ...env,
    VARIABLES: blanksRemoved as Record<string, string>,
    APP_SECRET: env.APP_SECRET ?? readOrCreateSecret(env.DATA_DIR),
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  };
}

/** A first run without APP_SECRET generates one and keeps it beside the data, so restarts reuse it. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
