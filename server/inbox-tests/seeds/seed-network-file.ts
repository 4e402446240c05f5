import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import type { Env } from '../../platform/env';
import type { ImapConnectionConfig } from '../../platform/imap/imap-client';

/*
 * The seed network file (SEED_NETWORK_FILE), JSON or YAML by extension (.json, .yaml, .yml). The
 * seed mailboxes inbox tests are sent to, and how to read them over IMAP. docs/seed-network.example.yaml
 * is a commented example.
 *
 *   deleteFoundMessages: false          # optional (default false): delete a found test message, so
 *                                       # seeds do not fill up; a seed may override it
 *   seeds:
 *     - provider: Gmail                 # shown in results
 *       mailboxSystem: Gmail            # Gmail, Microsoft 365, Yahoo, Dovecot, ...
 *       region: North America
 *       country: United States
 *       address: seed1@gmail.com        # where users send the test message; unique in the file
 *       imap:
 *         host: imap.gmail.com
 *         port: 993                     # optional: 993 with tls, 143 without
 *         tls: true                     # optional (default true): TLS from the first byte (imaps);
 *                                       # false: plain IMAP, upgraded with STARTTLS when offered
 *         tlsRejectUnauthorized: false  # optional: accept a self-signed certificate
 *         user: seed1@gmail.com
 *         password: env:SEED1_PASSWORD  # env:NAME reads variable NAME; anything else is the password
 *       folders:                        # optional
 *         inbox: INBOX                  # default INBOX
 *         spam: ["[Gmail]/Spam"]        # default: those of DEFAULT_SPAM_FOLDERS that exist
 *       deleteFoundMessages: true       # optional, overrides the top-level value
 */

/** Where providers put spam; a seed's mailbox is searched in those of them that exist. */
export const DEFAULT_SPAM_FOLDERS = ['Junk', 'Spam', 'Junk E-mail', '[Gmail]/Spam', 'Bulk Mail'];

/** One seed mailbox, ready to poll. The password is plain text here: only seed-sync stores it (encrypted). */
export interface SeedConfig {
  provider: string;
  mailboxSystem: string;
  region: string;
  country: string;
  address: string;
  imap: ImapConnectionConfig;
  inboxFolder: string;
  spamFolders: string[];
  deleteFound: boolean;
}

/** "is missing" when absent, `wrong` when of the wrong kind. */
const expected = (wrong: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is missing' : wrong);
const text = z
  .string({ error: expected('must be a text') })
  .trim()
  .min(1, 'must not be empty');
const flag = z.boolean({ error: expected('must be true or false') });

const ENV_PASSWORD = /^env:(.*)$/;

/** The file's shape. `environ` resolves env:NAME passwords, so a missing variable is one more listed problem. */
function seedFileSchema(environ: Record<string, string | undefined>) {
  const password = z
    .string({ error: expected('must be a text') })
    .min(1, 'must not be empty')
    .transform((value, ctx) => {
      const name = ENV_PASSWORD.exec(value)?.[1];
      if (name === undefined) return value;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        ctx.addIssue({ code: 'custom', message: `env:${name} is not a variable name` });
      else if (!environ[name]) ctx.addIssue({ code: 'custom', message: `environment variable ${name} is not set` });
      return environ[name] ?? '';
    });

  const imap = z
    .strictObject({
      host: text,
      port: z
        .number({ error: expected('must be a number') })
        .int('must be a whole number')
        .min(1, 'must be 1 to 65535')
        .max(65535, 'must be 1 to 65535')
        .optional(),
      tls: flag.default(true),
      tlsRejectUnauthorized: flag.optional(),
      user: text,
      password,
    })
    .transform(({ tls, port, ...rest }): ImapConnectionConfig => ({
      ...rest,
      secure: tls,
      port: port ?? (tls ? 993 : 143),
    }));

  const seed = z.strictObject({
    provider: text,
    mailboxSystem: text,
    region: text,
    country: text,
    address: z.email({ error: 'must be an e-mail address' }).transform((a) => a.toLowerCase()),
    imap,
    folders: z
      .strictObject({
        inbox: text.default('INBOX'),
        spam: z
          .array(text, { error: expected('must be a list of folder names') })
          .min(1, 'must name at least one folder')
          .optional(),
      })
      .optional(),
    deleteFoundMessages: flag.optional(),
  });

  return z.strictObject({
    deleteFoundMessages: flag.default(false),
    seeds: z.array(seed, { error: expected('must be a list of seed mailboxes') }),
  });
}

/**
 * The seeds of SEED_NETWORK_FILE (undefined without it), read once at start-up: a broken file stops
 * start-up as a bad variable does, with every problem listed.
 */
export function seedNetworkOf(env: Pick<Env, 'SEED_NETWORK_FILE' | 'VARIABLES'>): SeedConfig[] | undefined {
  if (!env.SEED_NETWORK_FILE) return undefined;
  try {
    return loadSeedNetworkFile(env.SEED_NETWORK_FILE, env.VARIABLES);
  } catch (error) {
    throw new Error(`Invalid environment:\n  SEED_NETWORK_FILE: ${(error as Error).message.replace(/\n/g, '\n  ')}`);
  }
}

/** Reads and checks the file; throws one Error listing every problem with where it is. */
export function loadSeedNetworkFile(file: string, environ: Record<string, string | undefined>): SeedConfig[] {
  const fail = (problems: string[]): never => {
    throw new Error(`Seed network file ${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  };
  const data = parseFile(file, fail);
  const parsed = seedFileSchema(environ).safeParse(data);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)),
    ...duplicateAddresses(data),
  ];
  if (!parsed.success || problems.length) return fail(problems);
  return parsed.data.seeds.map((seed) => ({
    provider: seed.provider,
    mailboxSystem: seed.mailboxSystem,
    region: seed.region,
    country: seed.country,
    address: seed.address,
    imap: seed.imap,
    inboxFolder: seed.folders?.inbox ?? 'INBOX',
    spamFolders: seed.folders?.spam ?? DEFAULT_SPAM_FOLDERS,
    deleteFound: seed.deleteFoundMessages ?? parsed.data.deleteFoundMessages,
  }));
}

function parseFile(file: string, fail: (problems: string[]) => never): unknown {
  const extension = path.extname(file).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(extension)) fail(['the name must end in .json, .yaml or .yml']);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return fail([e.code === 'ENOENT' ? 'the file does not exist' : `cannot be read: ${e.message}`]);
  }
  if (extension === '.json') {
    try {
      return JSON.parse(source);
    } catch (err) {
      return fail([`not valid JSON: ${(err as Error).message}`]);
    }
  }
  const doc = parseDocument(source, { prettyErrors: true });
  if (doc.errors.length) fail(doc.errors.map((e) => `not valid YAML: ${e.message.replace(/:?\n[\s\S]*$/, '')}`));
  return doc.toJS();
}

/** Seeds are known by address, so two with one address would be one seed. Checked on the raw data, beside the other problems. */
function duplicateAddresses(data: unknown): string[] {
  const seeds = (data as { seeds?: unknown } | null)?.seeds;
  if (!Array.isArray(seeds)) return [];
  const firstUse = new Map<string, number>();
  const problems: string[] = [];
  seeds.forEach((seed: { address?: unknown } | null, index) => {
    if (typeof seed?.address !== 'string') return;
    const address = seed.address.trim().toLowerCase();
    const previous = firstUse.get(address);
    if (previous === undefined) firstUse.set(address, index);
    else problems.push(`seeds[${index}].address: ${address} is already the address of seeds[${previous}]`);
  });
  return problems;
}

/** seeds.0.imap.port -> seeds[0].imap.port; the root is called "file". */
function formatPath(segments: PropertyKey[]): string {
  if (segments.length === 0) return 'file';
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');
}
