// `npm run send-test-email -- --to test-12-0123456789abcdef@inbox.localhost`: sends one realistic
// marketing message (HTML + text, List-Unsubscribe with one-click, Date, Message-ID) straight to a
// running InboxPulse's SMTP listener, so a new user can watch a whole inbox test without an ESP.
//
// Options: --to (required), --host (127.0.0.1), --port (2525, the SMTP_PORT default),
// --from (news@example.com), --subject (defaults to "[TEST-<id>] ..." read from the address),
// --dkim-domain d --dkim-selector s --dkim-key key.pem (all three, to DKIM-sign).
//
// The message goes from this machine's IP, so SPF of the --from domain will usually fail: that is
// what the report then shows, as it would for any sender whose SPF does not list its server.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';

export interface SendTestEmailOptions {
  to: string;
  host?: string;
  port?: number;
  from?: string;
  subject?: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** The name given in EHLO; this machine's host name unless set. */
  helo?: string;
  /** Connection and greeting timeout. */
  timeoutMs?: number;
}

export interface SendTestEmailResult {
  /** The server's reply to the message, e.g. "250 OK: Queued as 17". */
  response: string;
  messageId: string;
  subject: string;
  from: string;
}

export const DEFAULTS = { host: '127.0.0.1', port: 2525, from: 'news@example.com' } as const;

/** A usage or delivery problem with the words a user needs; the CLI prints `message` and exits 1. */
export class SendTestEmailError extends Error {}

const TEST_ADDRESS = /^test-(\d{1,9})-[a-z0-9]+@/i;

/** "[TEST-12] ..." for a test's own address: the tag seed mailboxes are searched by. */
export function defaultSubjectFor(to: string): string {
  const match = TEST_ADDRESS.exec(to);
  return match ? `[TEST-${match[1]}] Our spring collection is here` : 'Our spring collection is here';
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The message body: what a small brand's newsletter looks like, with both parts saying the same thing. */
function content(fromDomain: string) {
  const site = `https://${fromDomain}`;
  const unsubscribe = `${site}/unsubscribe?u=${randomBytes(6).toString('hex')}`;
  const text = [
    'Hello,',
    '',
    'Our spring collection is here: light jackets, linen shirts and the walking shoes many of you asked for.',
    `See the collection: ${site}/spring`,
    '',
    'Members get free delivery on every order until the end of the month.',
    '',
    'Thank you for reading,',
    'The team',
    '',
    '--',
    'You receive this e-mail because you subscribed on our website.',
    `Unsubscribe: ${unsubscribe}`,
    'Example Store, 1 Market Street, Springfield',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Our spring collection is here</title></head>
<body style="font-family: Arial, sans-serif; color: #222; max-width: 600px; margin: 0 auto;">
  <h1 style="font-size: 22px;">Our spring collection is here</h1>
  <p>Hello,</p>
  <p>Light jackets, linen shirts and the walking shoes many of you asked for.</p>
  <p><a href="${site}/spring" style="color: #1a56db;">See the collection</a></p>
  <p>Members get free delivery on every order until the end of the month.</p>
  <p>Thank you for reading,<br>The team</p>
  <hr>
  <p style="font-size: 12px; color: #666;">You receive this e-mail because you subscribed on our website.
  <a href="${unsubscribe}">Unsubscribe</a><br>Example Store, 1 Market Street, Springfield</p>
</body></html>`;
  return { text, html, unsubscribe };
}

/** Sends the test message; resolves with the server's reply, rejects with a SendTestEmailError in plain words. */
export async function sendTestEmail(options: SendTestEmailOptions): Promise<SendTestEmailResult> {
  const host = options.host ?? DEFAULTS.host;
  const port = options.port ?? DEFAULTS.port;
  const from = options.from ?? DEFAULTS.from;
  const subject = options.subject ?? defaultSubjectFor(options.to);
  const fromDomain = domainOf(from);
  const { text, html, unsubscribe } = content(fromDomain);
  const messageId = `<${Date.now().toString(36)}.${randomBytes(8).toString('hex')}@${fromDomain}>`;

  const transport = nodemailer.createTransport({
    host,
    port,
    secure: false,
    name: options.helo ?? hostname(),
    // A local instance with STARTTLS usually has a self-signed certificate; like MTAs do between
    // each other, encrypt when offered but do not refuse to deliver over an unverified certificate.
    tls: { rejectUnauthorized: false },
    connectionTimeout: options.timeoutMs ?? 10_000,
    greetingTimeout: options.timeoutMs ?? 10_000,
    ...(options.dkim ? { dkim: options.dkim } : {}),
  });
  try {
    const info = await transport.sendMail({
      from: { name: 'Example Store', address: from },
      to: options.to,
      subject,
      text,
      html,
      date: new Date(),
      messageId,
      // RFC 2369 + RFC 8058: mailbox providers want both the link and one-click unsubscribe.
      list: {
        unsubscribe: [
          { url: unsubscribe, comment: 'Unsubscribe' },
          `mailto:unsubscribe@${fromDomain}?subject=unsubscribe`,
        ],
      },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return { response: info.response, messageId, subject, from };
  } catch (error) {
    throw explain(error as SmtpFailure, host, port);
  } finally {
    transport.close();
  }
}

type SmtpFailure = NodeJS.ErrnoException & {
  responseCode?: number;
  response?: string;
  command?: string;
  originalCode?: string;
};

function explain(error: SmtpFailure, host: string, port: number): SendTestEmailError {
  // nodemailer reports socket errors as ESOCKET and keeps the system's code in originalCode.
  const code = error.originalCode ?? error.code;
  if (code === 'ECONNREFUSED') {
    return new SendTestEmailError(
      `Could not connect to ${host}:${port} (ECONNREFUSED). Is InboxPulse running? Start it with \`npm start\`; its SMTP listener uses SMTP_PORT (2525 unless set), or pass --host and --port.`,
    );
  }
  if (
    !error.responseCode &&
    (code === 'ETIMEDOUT' ||
      code === 'ENOTFOUND' ||
      code === 'EAI_AGAIN' ||
      code === 'ECONNRESET' ||
      code === 'ECONNECTION' ||
      code === 'EHOSTUNREACH')
  ) {
    return new SendTestEmailError(
      `Could not reach ${host}:${port} (${code}: ${error.message}). Check --host and --port, and that InboxPulse's SMTP listener runs there.`,
    );
  }
  if (error.responseCode) {
    const hint =
      error.responseCode === 550
        ? " Check the address: copy it from the test page (it must belong to a test that still exists, on the instance's INBOUND_DOMAIN)."
        : error.responseCode === 552
          ? ' The message is bigger than SMTP_MAX_MESSAGE_BYTES.'
          : error.responseCode === 421 || error.responseCode === 451 || error.responseCode === 452
            ? ' This is temporary: try again in a moment.'
            : '';
    return new SendTestEmailError(
      `The server refused the message${error.command ? ` at ${error.command.split(' ')[0]}` : ''}: ${error.response}.${hint}`,
    );
  }
  return new SendTestEmailError(`Sending failed: ${error.message}`);
}

const USAGE = `Usage: npm run send-test-email -- --to <test address> [--host 127.0.0.1] [--port 2525]
       [--from news@example.com] [--subject "..."] [--dkim-domain d --dkim-selector s --dkim-key key.pem]`;

/** Reads the command line into options; throws SendTestEmailError with the usage on a mistake. */
export function parseCommandLine(args: string[]): SendTestEmailOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        to: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        from: { type: 'string' },
        subject: { type: 'string' },
        'dkim-domain': { type: 'string' },
        'dkim-selector': { type: 'string' },
        'dkim-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new SendTestEmailError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) return 'help';
  if (!values.to) throw new SendTestEmailError(`--to is required: the test's address, shown on its page.\n${USAGE}`);
  if (!/^[^@\s]+@[^@\s]+$/.test(values.to))
    throw new SendTestEmailError(`--to must be an e-mail address, got "${values.to}".`);
  if (values.from && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.from))
    throw new SendTestEmailError(`--from must be an e-mail address, got "${values.from}".`);
  // There is no generic test@ address (a subject tag alone would let anyone start another user's test).
  if (/^test(\+[^@]*)?@/i.test(values.to)) {
    throw new SendTestEmailError(
      `${values.to} is not a test's address: send to the test's own address (test-<id>-<token>@...), shown on its page.`,
    );
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
    throw new SendTestEmailError(`--port must be a port number, got "${values.port}".`);

  const dkimGiven = [values['dkim-domain'], values['dkim-selector'], values['dkim-key']].filter(
    (v) => v !== undefined,
  ).length;
  if (dkimGiven !== 0 && dkimGiven !== 3)
    throw new SendTestEmailError('To DKIM-sign, give all three of --dkim-domain, --dkim-selector and --dkim-key.');
  let dkim: SendTestEmailOptions['dkim'];
  if (dkimGiven === 3) {
    let privateKey: string;
    try {
      privateKey = readFileSync(values['dkim-key']!, 'utf8');
    } catch (error) {
      throw new SendTestEmailError(`Could not read the DKIM key ${values['dkim-key']}: ${(error as Error).message}`);
    }
    if (!privateKey.includes('PRIVATE KEY'))
      throw new SendTestEmailError(`${values['dkim-key']} is not a PEM private key.`);
    dkim = { domainName: values['dkim-domain']!, keySelector: values['dkim-selector']!, privateKey };
  }
  return { to: values.to, host: values.host, port, from: values.from, subject: values.subject, dkim };
}

async function main(): Promise<number> {
  try {
    const options = parseCommandLine(process.argv.slice(2));
    if (options === 'help') {
      console.log(USAGE);
      return 0;
    }
    const result = await sendTestEmail(options);
    console.log(
      `Sent "${result.subject}" from ${result.from} to ${options.to} via ${options.host ?? DEFAULTS.host}:${options.port ?? DEFAULTS.port}${options.dkim ? ` (DKIM d=${options.dkim.domainName} s=${options.dkim.keySelector})` : ''}`,
    );
    console.log(`Message-ID: ${result.messageId}`);
    console.log(`Server replied: ${result.response}`);
    console.log('The analysis appears on the test page within a few seconds.');
    return 0;
  } catch (error) {
    if (error instanceof SendTestEmailError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
