import type { IpSuggestion } from '@contracts/reputation';
import type { AppContext } from '../platform/context';
import { parseIp } from '../platform/dns/ip-address';
import { unmonitorableReason } from './cidr';
import { dmarcSendersOf, monitoredAmong } from './ip-addresses.repo';

/** Part of the DMARC data a user would recognise as "recent": the analytics' default period. */
const PERIOD_DAYS = 30;
const MAX_SUGGESTIONS = 20;
/** Read more than shown: some of the senders are already monitored or not public. */
const SENDERS_READ = 200;

/**
 * Addresses worth monitoring, from the user's own DMARC reports: the sources that send as the user's
 * domains and pass, are public, and are not monitored yet. Adding one is POST /api/ip-addresses.
 */
export async function suggestIpAddresses(ctx: Pick<AppContext, 'db'>, userId: number): Promise<IpSuggestion[]> {
  const senders = await dmarcSendersOf(ctx.db, userId, PERIOD_DAYS, SENDERS_READ);
  // Reports write addresses as their receivers do (2001:DB8:0::1, ::ffff:192.0.2.1): merged by the one way of writing them.
  const byIp = new Map<string, IpSuggestion>();
  for (const sender of senders) {
    const address = parseIp(sender.sourceIp);
    if (!address || unmonitorableReason(address)) continue;
    const ip = address.toString();
    const seen = byIp.get(ip);
    if (!seen) {
      byIp.set(ip, { ipAddress: ip, domains: sender.domains, messages: sender.messages, passed: sender.passed, lastSeen: sender.lastSeen });
      continue;
    }
    seen.domains = [...new Set([...seen.domains, ...sender.domains])].sort();
    seen.messages += sender.messages;
    seen.passed += sender.passed;
    if (sender.lastSeen > seen.lastSeen) seen.lastSeen = sender.lastSeen;
  }
  const monitored = new Set(await monitoredAmong(ctx.db, userId, [...byIp.keys()]));
  return [...byIp.values()]
    .filter((s) => !monitored.has(s.ipAddress))
    .sort((a, b) => b.lastSeen.localeCompare(a.lastSeen) || b.messages - a.messages || a.ipAddress.localeCompare(b.ipAddress))
    .slice(0, MAX_SUGGESTIONS);
}
