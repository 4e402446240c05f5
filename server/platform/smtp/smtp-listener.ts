import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { AppError } from '../errors';
import { enforceRateLimit, rateLimitUsedUp } from '../security/rate-limit';
import type { JobSender } from '../job-sender';
import { parseIp, sendingNetwork } from '../dns/ip-address';
import { resolveRecipient, type InboundKind, type InboundMailbox } from './addresses';
import { queueInboundProcessing } from './process-inbound-message.job';
import { recentSenderIps, storeInboundMessage } from './inbound.repo';
import { BodyPieces } from './inbound-body';
import { keepExpectedSenders } from './expected-senders';
import { EARLY_TALKER, watchPreGreeting } from './pre-greeting';

/*
 * The inbound SMTP listener (smtp role): receives mail for INBOUND_DOMAIN only, never relays. A
 * message is stored in inbound_messages before "250" is answered and processed by a job, so a
 * crash after the answer loses nothing and a crash before it makes the sender retry.
 */

/** Connections one IP may hold open at once on this node (in memory: it is about this node's sockets). */
export const MAX_CONNECTIONS_PER_IP = 10;
export const MAX_RECIPIENTS = 50;
/**
 * New connections one sending network (sendingNetwork: its /24 or /64) may open in a window, counted in the database
 * across every smtp node: a sender with many addresses in one network is one sender.
 */
export const CONNECTION_RATE = { name: 'smtp-connect-net', limit: 240, windowSeconds: 10 * 60 };
/**
 * What talking before the greeting costs a network out of its CONNECTION_RATE window: a real MTA never does, so ten
 * early talks close the network's window, where a bot that keeps trying would otherwise get 240 attempts.
 */
export const EARLY_TALK_COST = CONNECTION_RATE.limit / 10;

/** How long and how much one connection may hold the listener (tests shorten the times). */
export interface SessionLimits {
  /** Messages on one connection; a sender with more opens another and meets the connection limits. */
  messagesPerSession: number;
  /** However busy, a connection ends after this long. */
  sessionDeadlineMs: number;
  /** Once a message has streamed in for `dataGraceMs`, it must average at least this rate, or the connection ends. */
  minDataBytesPerSecond: number;
  dataGraceMs: number;
  /**
   * Open connections from which a sending network that already holds one gets no second: the rest are kept for
   * other senders.
   */
  crowdedAt: number;
  /** Connections one sending network may hold open at once on this node, however many addresses it uses. */
  connectionsPerNetwork: number;
  /** Bytes of mail one sending network may have stored in an hour, across every node: a flood must not fill the disk. */
  bytesPerNetworkPerHour: number;
  /** Bytes of mail all senders together may have stored in an hour: many networks together must not fill it either. */
  bytesPerHour: number;
  /** Connections this node holds at once, from everyone. */
  maxConnections: number;
  /**
   * Of maxConnections, those only expected senders may take (networks that delivered mail the product used in the
   * last 30 days): strangers opening connections from many networks must not keep out the ESPs and report senders.
   */
  reservedConnections: number;
  /** How often the expected senders are read again from the database. */
  expectedSendersRefreshMs: number;
  /** How long a stranger waits for the greeting: long enough for a bot that does not wait for it to speak first. */
  greetingDelayMs: number;
}

export const SESSION_LIMITS: SessionLimits = {
  messagesPerSession: 10,
  sessionDeadlineMs: 10 * 60_000,
  minDataBytesPerSecond: 1024,
  dataGraceMs: 30_000,
  crowdedAt: 400,
  connectionsPerNetwork: 20,
  bytesPerNetworkPerHour: 100 * 1024 * 1024,
  bytesPerHour: 2 * 1024 * 1024 * 1024,
  maxConnections: 500,
  // A tenth: room for every expected sender's few connections at once, while strangers keep 450.
  reservedConnections: 50,
  expectedSendersRefreshMs: 5 * 60_000,
  // Postfix postscreen waits 6 s (2 s under stress); real MTAs wait minutes for a greeting (RFC 5321 4.5.3.2.1).
  greetingDelayMs: 2_000,
};

export interface SmtpListenerDeps {
  env: Pick<Env, 'INBOUND_DOMAIN' | 'SMTP_PORT' | 'HOST' | 'SMTP_MAX_MESSAGE_BYTES' | 'SMTP_TLS_CERT' | 'SMTP_TLS_KEY'>;
  db: Db;
  jobs: JobSender;
  log: Logger;
  /** The capabilities' mailboxes (server/inbound-mailboxes.ts): mail for anything else is refused. */
  mailboxes: readonly InboundMailbox[];
  limits?: Partial<SessionLimits>;
}

export interface SmtpListener {
  port: number;
  /** Connections not closed yet plus messages still being read or stored: 0 once the listener is done with every sender (tests wait for it). */
  busy(): number;
  close(): Promise<void>;
}

const TOO_MUCH_MAIL = 'Too much mail from your network this hour, try again later';
const TOO_MANY_CONNECTIONS = 'Too many connections from your network, try again later';

/** The network a session's address counts under; a session without a readable address counts as itself. */
const networkOf = (ip: string | undefined) => (ip && parseIp(ip) ? sendingNetwork(ip) : String(ip));

/** A session's accepted recipients for one mailbox, and what they named there. */
interface Recipients {
  addresses: string[];
  targetIds: number[];
}

/** An SMTP refusal: smtp-server answers with responseCode and the message. */
function smtpError(responseCode: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode });
}

/** What this code reaches of smtp-server's connection: its session, and the 421 that answers and closes it. */
interface OpenConnection {
  session: SMTPServerSession;
  send(code: number, message: string): void;
}

export async function startSmtpListener({
  env,
  db,
  jobs,
  log,
  mailboxes,
  limits: given,
}: SmtpListenerDeps): Promise<SmtpListener> {
  const limits = { ...SESSION_LIMITS, ...given };
  const bytesPerNetwork = { name: 'smtp-bytes-net', limit: limits.bytesPerNetworkPerHour, windowSeconds: 60 * 60 };
  const bytesInAll = { name: 'smtp-bytes-all', limit: limits.bytesPerHour, windowSeconds: 60 * 60 };
  /** Whether this hour's mail from the session's network, or from everyone, has reached its bound. */
  const volumeUsedUp = async (session: SMTPServerSession) =>
    (
      await Promise.all([
        rateLimitUsedUp(db, bytesPerNetwork, networkOf(session.remoteAddress)),
        rateLimitUsedUp(db, bytesInAll, 'all'),
      ])
    ).some((bound) => bound.usedUp);
  const tls =
    env.SMTP_TLS_CERT && env.SMTP_TLS_KEY
      ? { cert: readFileSync(env.SMTP_TLS_CERT), key: readFileSync(env.SMTP_TLS_KEY) }
      : undefined;
  // Open connections on this node, per address and per sending network.
  const open = new Map<string, number>();
  const openPerNetwork = new Map<string, number>();
  // Where each counted connection came from: smtp-server also closes connections it never handed to onConnect (a
  // port check that hangs up at once, with no address yet), and those must not be counted down.
  const counted = new Map<string, { ip: string; network: string }>();
  const countOpen = (counts: Map<string, number>, key: string, by: 1 | -1) => {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
    return n;
  };
  // The accepted recipients of each session, by what they are for: one stored message per kind.
  const recipients = new WeakMap<SMTPServerSession, Map<InboundKind, Recipients>>();
  let receiving = 0;
  const deadlines = new Map<string, NodeJS.Timeout>();
  const expectedSenders = await keepExpectedSenders(() => recentSenderIps(db), limits.expectedSendersRefreshMs, log);

  const server = new SMTPServer({
    name: env.INBOUND_DOMAIN,
    banner: 'InboxPulse inbound mail',
    size: env.SMTP_MAX_MESSAGE_BYTES,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...tls,
    maxClients: limits.maxConnections,
    socketTimeout: 60_000,
    closeTimeout: 10_000,
    logger: false,
    // DSNs and 8BITMIME are announced by default; SMTPUTF8 lets international senders through.
    // A refused connection is answered 421 and closed: the sender retries later.
    async onConnect(session, callback) {
      const ip = session.remoteAddress;
      const network = networkOf(ip);
      counted.set(session.id, { ip, network });
      const count = countOpen(open, ip, 1);
      const inNetwork = countOpen(openPerNetwork, network, 1);
      const crowded = server.connections.size > limits.crowdedAt;
      if (count > MAX_CONNECTIONS_PER_IP || inNetwork > limits.connectionsPerNetwork || (inNetwork > 1 && crowded)) {
        return callback(smtpError(421, TOO_MANY_CONNECTIONS));
      }
      const expected = expectedSenders.has(network);
      if (!expected && server.connections.size > limits.maxConnections - limits.reservedConnections) {
        return callback(smtpError(421, 'Too many connections, try again later'));
      }
      const deadline = setTimeout(
        () => hangUp(session, 'Session time limit reached, closing'),
        limits.sessionDeadlineMs,
      );
      deadlines.set(session.id, deadline.unref());
      try {
        await enforceRateLimit(db, CONNECTION_RATE, network);
      } catch {
        return callback(smtpError(421, TOO_MANY_CONNECTIONS));
      }
      // Expected senders are greeted at once; a stranger waits, and one that speaks meanwhile is sent away.
      if (!(await preGreeting.quietFor(session, expected ? 0 : limits.greetingDelayMs)))
        return callback(smtpError(554, EARLY_TALKER));
      callback();
    },
    onClose(session) {
      clearTimeout(deadlines.get(session.id));
      deadlines.delete(session.id);
      const from = counted.get(session.id);
      if (!from) return;
      counted.delete(session.id);
      countOpen(open, from.ip, -1);
      countOpen(openPerNetwork, from.network, -1);
    },
    // A new transaction on the same connection starts with no recipients.
    onMailFrom(_address, session, callback) {
      recipients.delete(session);
      if (session.transaction > limits.messagesPerSession)
        return callback(smtpError(421, 'Too many messages on one connection, closing'));
      // A network past its hourly volume, or everyone past the total, is told to come back later (4xx: its mail is
      // queued, not lost).
      volumeUsedUp(session)
        .then((usedUp) => callback(usedUp ? smtpError(452, TOO_MUCH_MAIL) : undefined))
        .catch((err: Error) => {
          log.error({ err }, 'inbound volume check failed');
          callback(smtpError(451, 'Temporary failure, please try again later'));
        });
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, 'Too many recipients'));
      // Resolved once, here: an address that does not exist (a mistyped or deleted test's) bounces at
      // once, so the sender knows, and what it names is stored with the message.
      resolveRecipient(db, address.address, env, mailboxes)
        .then((recipient) => {
          if (recipient === 'foreign_domain')
            return callback(
              smtpError(550, `Relay access denied: this server only accepts mail for ${env.INBOUND_DOMAIN}`),
            );
          if (recipient === 'no_such_address') return callback(smtpError(550, `No such mailbox: ${address.address}`));
          const byKind = recipients.get(session) ?? new Map<InboundKind, Recipients>();
          const listed = byKind.get(recipient.kind) ?? { addresses: [], targetIds: [] };
          // A repeated RCPT is one recipient (compared without case, as smtp-server does for the envelope).
          if (!listed.addresses.some((a) => a.toLowerCase() === address.address.toLowerCase())) {
            listed.addresses.push(address.address);
            if (recipient.targetId !== null && !listed.targetIds.includes(recipient.targetId))
              listed.targetIds.push(recipient.targetId);
          }
          byKind.set(recipient.kind, listed);
          recipients.set(session, byKind);
          callback();
        })
        .catch((err: Error) => {
          log.error({ err }, 'inbound recipient check failed');
          callback(smtpError(451, 'Temporary failure, please try again later'));
        });
    },
    onData(stream, session, callback) {
      receiving++;
      receive(stream, session, recipients.get(session) ?? new Map())
        .then((reply) => callback(null, reply))
        .catch((error: Error & { responseCode?: number; code?: string }) => {
          // A sender that went away (or was sent away) mid-message is the sender's business, not a fault here.
          if (error.code === 'ECONNECTION')
            log.info({ remoteIp: session.remoteAddress }, 'inbound connection closed in the middle of a message');
          else if (!error.responseCode) log.error({ err: error }, 'inbound message could not be stored');
          callback(error.responseCode ? error : smtpError(451, 'Temporary failure, please try again later'));
        })
        .finally(() => receiving--);
    },
  });
  server.on('error', (err) => log.warn({ err }, 'inbound SMTP connection error'));
  const preGreeting = watchPreGreeting(server.server, (ip) => {
    log.info({ remoteIp: ip }, 'inbound client spoke before the greeting');
    enforceRateLimit(db, CONNECTION_RATE, networkOf(ip), EARLY_TALK_COST).catch((err: unknown) => {
      if (!(err instanceof AppError)) log.error({ err }, 'an early talker could not be counted');
    });
  });

  async function receive(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    byKind: Map<InboundKind, Recipients>,
  ): Promise<string> {
    // Joined a piece at a time as it arrives, never whole: a 10 MB copy holds the event loop (inbound-body.ts).
    const body = new BodyPieces();
    let kept = 0;
    let arrived = 0;
    // A sender trickling bytes (slow DATA) would hold a slot for as long as it likes: below the minimum rate it is sent
    // away.
    const started = Date.now();
    const pace = setInterval(
      () => {
        const elapsed = Date.now() - started;
        if (elapsed > limits.dataGraceMs && arrived < (elapsed / 1000) * limits.minDataBytesPerSecond)
          hangUp(session, 'Data arriving too slowly, closing');
      },
      Math.min(1000, limits.dataGraceMs),
    ).unref();
    try {
      for await (const chunk of stream) {
        arrived += (chunk as Buffer).length;
        // Past the limit the rest is read and dropped: a sender must not make us hold more than the limit.
        if (kept > env.SMTP_MAX_MESSAGE_BYTES) continue;
        body.add(chunk as Buffer);
        kept += (chunk as Buffer).length;
      }
    } finally {
      clearInterval(pace);
    }
    if (stream.sizeExceeded || kept > env.SMTP_MAX_MESSAGE_BYTES)
      throw smtpError(552, `Message too big: the limit is ${env.SMTP_MAX_MESSAGE_BYTES} bytes`);
    const raw = body.done();
    try {
      await enforceRateLimit(db, bytesPerNetwork, networkOf(session.remoteAddress), kept);
      await enforceRateLimit(db, bytesInAll, 'all', kept);
    } catch {
      throw smtpError(452, TOO_MUCH_MAIL);
    }
    const ids: number[] = [];
    for (const [kind, { addresses, targetIds }] of byKind) {
      const id = await storeInboundMessage(db, {
        kind,
        source: 'smtp',
        remoteIp: session.remoteAddress,
        helo: session.hostNameAppearsAs,
        tls: session.tlsOptions ? `${session.tlsOptions.version} ${session.tlsOptions.standardName}` : 'none',
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        rcptTo: addresses,
        targetIds: targetIds.sort((a, b) => a - b),
        raw,
      });
      if (id !== undefined) ids.push(id);
    }
    // Sent after the insert committed; if this process dies first, maintenance queues it again.
    for (const id of ids) await queueInboundProcessing(jobs, id);
    log.info({ ids, remoteIp: session.remoteAddress, size: kept }, 'inbound message received');
    return `Queued as ${ids.join(',')}`;
  }

  /** Answers 421 and closes the connection of `session`, wherever it is in the dialogue. */
  function hangUp(session: SMTPServerSession, message: string): void {
    const connections = (server as unknown as { connections: Set<OpenConnection> }).connections;
    for (const connection of connections) {
      if (connection.session.id !== session.id) continue;
      log.info({ remoteIp: session.remoteAddress, reason: message }, 'inbound connection closed');
      connection.send(421, message);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(env.SMTP_PORT, env.HOST, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ port, domain: env.INBOUND_DOMAIN, starttls: Boolean(tls) }, 'inbound SMTP listening');
  return {
    port,
    busy: () => [...open.values()].reduce((sum, n) => sum + n, receiving),
    close: () =>
      new Promise<void>((resolve) => {
        expectedSenders.stop();
        server.close(() => resolve());
      }),
  };
}
