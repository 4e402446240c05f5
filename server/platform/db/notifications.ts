import pg from 'pg';
import type { Logger } from 'pino';
import type { ConnectionSettings } from './client';

/**
 * Signals between the processes of one installation over PostgreSQL LISTEN/NOTIFY: one listening
 * connection per process, kept open and re-opened when it drops. A notification reaches every
 * listening process, the sender's own included, once the sending transaction commits.
 *
 * Notifications sent while the connection is down are lost. Whoever keeps state on the strength of
 * them (a cache) registers onReconnect and starts over, and checks `listening` before trusting it.
 */
export interface Notifications {
  /** Calls `handler` with the payload of every notification on `channel`. Channel names are plain identifiers. */
  subscribe(channel: string, handler: (payload: string) => void): Promise<void>;
  /** Called each time the connection is back after a drop. */
  onReconnect(handler: () => void): void;
  /** True while notifications are being received. */
  readonly listening: boolean;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

export async function openNotifications(connection: ConnectionSettings, log: Logger): Promise<Notifications> {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const reconnectHandlers: (() => void)[] = [];
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ ...connection, application_name: 'inboxpulse-listen' });
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (err) {
          log.error({ err, channel: message.channel }, 'notification handler failed');
        }
      }
    });
    next.on('error', () => {}); // 'end' follows and reconnects
    next.on('end', () => {
      if (client !== next) return;
      listening = false;
      client = undefined;
      if (!closed) {
        log.warn('lost the notification connection to PostgreSQL; reconnecting');
        scheduleReconnect();
      }
    });
    await next.connect();
    for (const channel of handlers.keys()) await next.query(`LISTEN ${channel}`);
    client = next;
    listening = true;
  }

  function scheduleReconnect(): void {
    retryTimer = setTimeout(async () => {
      try {
        await connect();
        retryMs = RETRY_MIN_MS;
        for (const handler of reconnectHandlers) handler();
      } catch {
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        if (!closed) scheduleReconnect();
      }
    }, retryMs);
    retryTimer.unref();
  }

  await connect();

  return {
    async subscribe(channel, handler) {
      if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await client?.query(`LISTEN ${channel}`);
      }
      set.add(handler);
    },
    onReconnect(handler) {
      reconnectHandlers.push(handler);
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
