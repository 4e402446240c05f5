import type { IpSuggestion } from '@contracts/reputation';
import { providerOfMxHost } from '../engine/mailbox-providers/mailbox-provider';
import { nameSources } from '../dmarc/dmarc.service';
import type { AppContext } from '../platform/context';
import { parseIp } from '../platform/dns/ip-address';
import { unmonitorableReason } from './cidr';
import { dmarcSendersOf, intermediarySourcesOf } from '../insights/sender-ips';
import { monitoredAmong } from './ip-addresses.repo';

/** Part of the DMARC data a user would recognise as "recent": the analytics' default period. */
const PERIOD_DAYS = 30;
const MAX_SUGGESTIONS = 20;
/** Read more than shown: some of the senders are already monitored or not public. */
const SENDERS_READ = 200;

/** The suggestions wait this long at most for PTR names; an address not named by then is kept. */
const NAMING_DEADLINE_MS = 2_000;

/**
 * Addresses worth monitoring, from the user's own DMARC reports: the sources that send as the user's
 * domains and pass, are public, and are not monitored yet. Left out (ADR 042): sources a receiver
 * reported as a forwarder or a mailing list (DKIM passes through them, but they are not the user's
 * servers), and servers of mailbox providers by their PTR name (a Gmail user's forward, or Google
 * Workspace: shared servers the user cannot get delisted). Adding one is POST /api/ip-addresses.
 */
export async function suggestIpAddresses(ctx: Pick<AppContext, 'db' | 'dns'>, userId: number): Promise<IpSuggestion[]> {
  const [senders, intermediaries] = await Promise.all([
    dmarcSendersOf(ctx.db, userId, PERIOD_DAYS, SENDERS_READ),
    intermediarySourcesOf(ctx.db, userId, PERIOD_DAYS),
  ]);
  const forwarded = new Set(intermediaries.map((ip) => parseIp(ip)?.toString()));
  // Reports write addresses as their receivers do (2001:DB8:0::1, ::ffff:192.0.2.1): merged by the one way of writing
  // them.
  const byIp = new Map<string, IpSuggestion>();
  for (const sender of senders) {
    const address = parseIp(sender.sourceIp);
    if (!address || unmonitorableReason(address)) continue;
    const ip = address.toString();
    if (forwarded.has(ip)) continue;
    const seen = byIp.get(ip);
    if (!seen) {
      byIp.set(ip, {
        ipAddress: ip,
        domains: sender.domains,
        messages: sender.messages,
        passed: sender.passed,
        lastSeen: sender.lastSeen,
      });
      continue;
    }
    seen.domains = [...new Set([...seen.domains, ...sender.domains])].sort();
    seen.messages += sender.messages;
    seen.passed += sender.passed;
    if (sender.lastSeen > seen.lastSeen) seen.lastSeen = sender.lastSeen;
  }
  const monitored = new Set(await monitoredAmong(ctx.db, userId, [...byIp.keys()]));
  const candidates = [...byIp.values()].filter((s) => !monitored.has(s.ipAddress));
  const names = await nameSources(
    ctx.dns,
    candidates.map((s) => s.ipAddress),
    { deadlineMs: NAMING_DEADLINE_MS },
  );
  const mailboxProvider = (ip: string) => {
    const ptr = names.get(ip)?.reverseDns;
    return ptr ? providerOfMxHost(ptr) !== null : false;
  };
  return candidates
    .filter((s) => !mailboxProvider(s.ipAddress))
    .sort(
      (a, b) =>
        b.lastSeen.localeCompare(a.lastSeen) || b.messages - a.messages || a.ipAddress.localeCompare(b.ipAddress),
    )
    .slice(0, MAX_SUGGESTIONS);
}
