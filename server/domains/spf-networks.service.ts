import type { SpfNode } from '@contracts/domains';
import type { DnsResolver } from '../platform/dns/resolver';
import { parseRecord } from './checks/spf-terms';
import { newWalk, walkRecord } from './checks/spf-walk';

/** What an SPF include publishes: its ip4:/ip6: networks, or why they could not all be read. */
export type PublishedNetworks = { networks: string[] } | { failed: string };

/**
 * The networks an SPF include (a sending service's, such as _spf.google.com) authorises, read through its
 * whole include and redirect tree by the same walk the domain check uses: that walk stops at 10 levels and at
 * loops, which bounds a tree wider than a customer's 10-lookup budget. Only passing ip4:/ip6: terms count; a:
 * and mx: name hosts, not published networks. A lookup that fails, or a tree with no network at all, is a
 * failure: the caller keeps what it had rather than storing a partial list.
 */
export async function publishedNetworks(dns: DnsResolver, include: string): Promise<PublishedNetworks> {
  const walk = newWalk(dns, include);
  const root = await walkRecord(walk, include, `v=spf1 include:${include}`, new Set(), 0);
  // The walk's node error for a lookup that failed; a missing or looping include is what the service publishes.
  const unanswered = nodes(root).find((node) => node.error === 'DNS lookup failed');
  if (unanswered) return { failed: `the lookup of ${unanswered.domain} failed` };
  const networks = nodes(root)
    .slice(1)
    .flatMap((node) => parseRecord(node.record ?? '').terms)
    .flatMap((term) =>
      term.kind === 'mechanism' && term.qualifier === '+' && (term.name === 'ip4' || term.name === 'ip6')
        ? [term.raw.replace(/^\+?ip[46]:/i, '')]
        : [],
    );
  if (networks.length === 0) return { failed: `${include} publishes no ip4: or ip6: network` };
  return { networks: [...new Set(networks)] };
}

const nodes = (node: SpfNode): SpfNode[] => [node, ...node.children.flatMap(nodes)];
