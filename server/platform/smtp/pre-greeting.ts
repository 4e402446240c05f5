import type { Server, Socket } from 'node:net';
import type { SMTPServerSession } from 'smtp-server';
import { normaliseIp } from '../dns/ip-address';

/*
 * Postfix postscreen's pregreet test: RFC 5321 4.3.1 has a client wait for the 220 greeting before it says anything,
 * and spam bots that talk at once (to save time) give themselves away. smtp-server has no hook for this: it answers a
 * whole command line that comes before its greeting "421 You talk too soon" (the sender retries) and never sees a
 * partial one. So the accepted socket itself is watched, from the moment it is accepted until the greeting: the first
 * byte before it is answered 554 at once (before smtp-server's parser reads the same bytes, whose reply then finds
 * the socket ended and is never written) and the connection ends.
 */

export const EARLY_TALKER = 'Protocol error: you spoke before the greeting (RFC 5321 section 4.3.1), closing';

interface Watched {
  socket: Socket;
  spoke: boolean;
  /** Ends the wait of quietFor as soon as the client speaks. */
  wake?: () => void;
  stop(): void;
}

export interface PreGreetingWatch {
  /**
   * Waits `ms` (0: not at all) without holding the event loop, or until the client speaks. True when it kept quiet
   * (watching stops: its greeting goes out now); false when it spoke first (it has been answered 554 and is leaving).
   */
  quietFor(session: SMTPServerSession, ms: number): Promise<boolean>;
}

// smtp-server's session carries the socket's address and port (IPv4-mapped unwrapped): together they name the socket.
const keyOf = (address: string | undefined, port: number | undefined) => `${normaliseIp(address ?? '')}|${port}`;

/** Watches every socket `server` accepts; `onEarlyTalker` hears of each that spoke before its greeting. */
export function watchPreGreeting(server: Server, onEarlyTalker: (ip: string) => void): PreGreetingWatch {
  const watched = new Map<string, Watched>();
  server.on('connection', (socket: Socket) => {
    const key = keyOf(socket.remoteAddress, socket.remotePort);
    const onData = () => {
      entry.stop();
      entry.spoke = true;
      socket.end(`554 ${EARLY_TALKER}\r\n`);
      onEarlyTalker(socket.remoteAddress ?? '');
      entry.wake?.();
    };
    const entry: Watched = {
      socket,
      spoke: false,
      stop: () => socket.off('data', onData),
    };
    // Added before smtp-server's own reader (it pipes the socket only after this event): this one sees bytes first.
    socket.on('data', onData);
    // A later socket may have the same address and port once this one is gone: only this one's entry goes.
    socket.once('close', () => {
      if (watched.get(key) === entry) watched.delete(key);
    });
    watched.set(key, entry);
  });

  return {
    async quietFor(session, ms) {
      const entry = watched.get(keyOf(session.remoteAddress, session.remotePort));
      // Gone already: nothing will be greeted.
      if (!entry) return false;
      if (!entry.spoke && ms > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms).unref();
          entry.wake = () => (clearTimeout(timer), resolve());
        });
      }
      entry.stop();
      return !entry.spoke;
    },
  };
}
