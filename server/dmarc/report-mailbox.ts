import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import { closeImap, describeImapError, ImapError, openImap, type ImapTuning } from '../platform/imap/imap-client';
import type { ImapMailboxConfig } from '../platform/imap/imap-url';

/** One message as the mailbox holds it. folder + uidValidity + uid name it for good (dedupe on them). */
export interface MailboxMessage {
  folder: string;
  /** UIDVALIDITY as a decimal string: a bigint that must survive JSON. */
  uidValidity: string;
  uid: number;
  messageId: string | null;
  raw: Buffer;
}

export interface DrainOptions {
  /** At most this many messages per call; the rest wait for the next poll. */
  limit: number;
  /** Larger messages (by the server's RFC822.SIZE) are never downloaded: flagged \Seen and reported. */
  maxBytes: number;
  /** Must be idempotent: if flagging fails after it resolved, the message comes again next poll. */
  handle(message: MailboxMessage): Promise<void>;
  logger?: Pick<Logger, 'warn' | 'error'>;
  tuning?: ImapTuning;
}

export interface DrainResult {
  handled: number;
  failed: number;
  /** UIDs of messages over maxBytes, flagged \Seen without being handled. */
  skippedTooBig: number[];
}

/**
 * Hands each message of the folder not yet flagged \Seen (oldest first, at most `limit`) to
 * `handle`, and flags it \Seen only after `handle` resolved, so a message whose handling throws
 * stays unseen and is tried again on the next poll. Connection, login and folder problems throw an
 * ImapError with a message fit for an operator.
 */
export async function drainUnseen(config: ImapMailboxConfig, opts: DrainOptions): Promise<DrainResult> {
  // A server announcing a literal beyond maxBytes (lying about RFC822.SIZE) breaks the connection
  // instead of filling memory.
  const client = await openImap(config, { maxLiteralSize: opts.maxBytes + 1024 * 1024, ...opts.tuning });
  try {
    const lock = await client
      .getMailboxLock(config.folder)
      .catch((err: { responseStatus?: string; responseText?: string }) => {
        if (err.responseStatus !== 'NO') throw err; // a broken connection, not a refused folder
        throw new ImapError(
          `IMAP folder "${config.folder}" cannot be opened for ${config.user} at ${config.host}:${config.port}: ${err.responseText ?? 'refused'}`,
          'folder',
        );
      });
    try {
      return await drainOpenFolder(client, config.folder, opts);
    } finally {
      lock.release();
    }
  } catch (err) {
    throw describeImapError(err, config);
  } finally {
    await closeImap(client);
  }
}

async function drainOpenFolder(client: ImapFlow, folder: string, opts: DrainOptions): Promise<DrainResult> {
  const result: DrainResult = { handled: 0, failed: 0, skippedTooBig: [] };
  const mailbox = client.mailbox;
  if (!mailbox) throw new ImapError(`IMAP folder "${folder}" is not open`, 'folder');
  // Without write access \Seen cannot be stored, and every poll would hand the same messages again.
  if (mailbox.readOnly)
    throw new ImapError(`IMAP folder "${folder}" is read-only, so read messages cannot be flagged \\Seen`, 'folder');
  const uidValidity = String(mailbox.uidValidity);

  const unseen = (await client.search({ seen: false }, { uid: true })) || [];
  const batch = unseen.sort((a, b) => a - b).slice(0, opts.limit);
  if (batch.length === 0) return result;
  // Sizes and Message-IDs first: fetch is a stream, and no other command may run while it is read.
  const headers = await client.fetchAll(batch, { uid: true, size: true, envelope: true }, { uid: true });
  headers.sort((a, b) => a.uid - b.uid);

  for (const { uid, size, envelope } of headers) {
    if ((size ?? 0) > opts.maxBytes) {
      opts.logger?.warn({ folder, uid, size, maxBytes: opts.maxBytes }, 'IMAP message too big: flagged seen, not read');
      await client.messageFlagsAdd([uid], ['\\Seen'], { uid: true });
      result.skippedTooBig.push(uid);
      continue;
    }
    // imapflow fetches with BODY.PEEK[], so downloading does not flag the message \Seen by itself.
    const message = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (!message || !message.source) continue; // expunged by someone else meanwhile
    try {
      await opts.handle({ folder, uidValidity, uid, messageId: envelope?.messageId ?? null, raw: message.source });
    } catch (err) {
      opts.logger?.error({ err, folder, uid }, 'IMAP message not handled: left unseen for the next poll');
      result.failed++;
      continue;
    }
    await client.messageFlagsAdd([uid], ['\\Seen'], { uid: true });
    result.handled++;
  }
  return result;
}
