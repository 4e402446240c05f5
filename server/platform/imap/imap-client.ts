import type { ImapFlow, ImapFlowOptions } from 'imapflow';

/** Where and how to log in; shared by every poller (DMARC report mailbox, seed mailboxes). */
export interface ImapConnectionConfig {
  host: string;
  port: number;
  /** TLS from the first byte (imaps://, usually port 993). */
  secure: boolean;
  user: string;
  password: string;
  /** imap:// only. Unset: upgrade when the server offers STARTTLS; true: require it; false: never. */
  doSTARTTLS?: boolean;
  /** false accepts a self-signed or otherwise unverifiable certificate. */
  tlsRejectUnauthorized?: boolean;
}

export type ImapTuning = Pick<
  ImapFlowOptions,
  'connectionTimeout' | 'greetingTimeout' | 'socketTimeout' | 'maxLiteralSize'
>;

// imapflow waits 90 s to connect and 5 min on a silent socket; a poller should give up sooner.
const defaultTuning: ImapTuning = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 120_000 };

export type ImapFailure = 'auth' | 'connect' | 'timeout' | 'tls' | 'folder' | 'protocol';

/** An IMAP failure told in words an operator can act on. Never carries the password. */
export class ImapError extends Error {
  constructor(
    message: string,
    readonly failure: ImapFailure,
  ) {
    super(message);
    this.name = 'ImapError';
  }
}

/** A logged-in client: logging off (imapflow logs every command), no auto-IDLE, bounded waits. */
export async function openImap(config: ImapConnectionConfig, tuning: ImapTuning = {}): Promise<ImapFlow> {
  // Loaded on first use, as every start-up dependency only some jobs need (ADR 060): it adds to each start's time to first answer.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: config.host,
    port: config.port,
    secure: config.secure,
    doSTARTTLS: config.secure ? undefined : config.doSTARTTLS,
    auth: { user: config.user, pass: config.password },
    tls: { rejectUnauthorized: config.tlsRejectUnauthorized ?? true },
    logger: false,
    // A poller runs commands back to back and leaves; IDLE between them only costs round trips.
    disableAutoIdle: true,
    ...defaultTuning,
    ...tuning,
  });
  // Without a listener a socket error emitted between commands would crash the process; the
  // pending or next command rejects with it instead.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    // imapflow leaves the socket open after a refused login; the server would hold it for minutes.
    client.close();
    throw describeImapError(err, config);
  }
  return client;
}

/** LOGOUT politely; a connection that is already broken is just closed. */
export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    await client.logout();
  } catch {
    client.close();
  }
}

const timeoutCodes = new Set(['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT', 'ETIMEOUT', 'ETIMEDOUT']);
const connectCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
]);

/** Turns what imapflow or the socket threw into an ImapError naming the server, the user and the cause. */
export function describeImapError(err: unknown, config: ImapConnectionConfig): ImapError {
  if (err instanceof ImapError) return scrub(err, config.password);
  const e = (err ?? {}) as {
    message?: string;
    code?: string;
    responseText?: string;
    authenticationFailed?: boolean;
    reason?: string;
  };
  const server = `IMAP server ${config.host}:${config.port}`;
  const detail = e.responseText || e.reason || e.message || String(err);
  let described: ImapError;
  if (e.authenticationFailed) {
    described = new ImapError(`${server} refused the login as ${config.user}: ${detail}`, 'auth');
  } else if (e.code && timeoutCodes.has(e.code)) {
    described = new ImapError(`${server} did not answer in time (${e.code})`, 'timeout');
  } else if (e.code && connectCodes.has(e.code)) {
    described = new ImapError(`Cannot connect to ${server}: ${detail}`, 'connect');
  } else if (
    /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(e.code ?? '') ||
    /certificate|ssl|tls/i.test(e.message ?? '')
  ) {
    const hint =
      config.tlsRejectUnauthorized === false
        ? ''
        : ' (?tls_reject_unauthorized=false accepts a self-signed certificate)';
    described = new ImapError(`TLS with ${server} failed: ${detail}${hint}`, 'tls');
  } else if (e.code?.startsWith('ClosedAfterConnect')) {
    described = new ImapError(
      `${server} closed the connection${e.reason ? `: ${e.reason}` : ' (wrong port, or imap:// against a TLS port?)'}`,
      'connect',
    );
  } else {
    described = new ImapError(`${server} (user ${config.user}): ${detail}`, 'protocol');
  }
  return scrub(described, config.password);
}

// Defence in depth: a server echoing input must not put the password into logs or the UI.
function scrub(error: ImapError, password: string): ImapError {
  if (!password || !error.message.includes(password)) return error;
  return new ImapError(error.message.split(password).join('***'), error.failure);
}
