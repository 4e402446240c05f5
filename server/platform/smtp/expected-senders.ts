import type { Logger } from 'pino';
import { parseIp, sendingNetwork } from '../dns/ip-address';

/*
 * The sending networks the listener expects mail from, held in memory so that a connection costs no query: each node
 * reads them on its own in the background, and a network that starts sending mail the product uses waits at most one
 * refresh to be recognised (nothing another process needs lives here).
 */

export interface ExpectedSenders {
  /** Whether `network` (sendingNetwork's form) delivered mail the product used lately. */
  has(network: string): boolean;
  stop(): void;
}

/**
 * Loads the senders' addresses now and again every `everyMs`. A failed load keeps the last set: a database hiccup must
 * not turn every expected sender into a stranger.
 */
export async function keepExpectedSenders(
  loadIps: () => Promise<string[]>,
  everyMs: number,
  log: Logger,
): Promise<ExpectedSenders> {
  let networks = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const refresh = async () => {
    try {
      const ips = await loadIps();
      networks = new Set(ips.filter((ip) => parseIp(ip)).map(sendingNetwork));
    } catch (err) {
      log.warn({ err }, 'the expected SMTP senders could not be reloaded; keeping the last set');
    }
    // The next load is timed from the end of this one, so a slow database never has two running.
    if (!stopped) timer = setTimeout(() => void refresh(), everyMs).unref();
  };
  await refresh();
  return {
    has: (network) => networks.has(network),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
