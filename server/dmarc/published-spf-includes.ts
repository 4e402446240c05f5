import type { SpfNode } from '@contracts/domains';
import { listUserDomains } from '../insights/user-domains';
import type { Executor } from '../platform/db/client';

/**
 * Every name each of the user's domains' SPF record includes, directly or through its own includes, as the
 * domain's last DNS check read it. A domain never checked is absent: for it only the reports can tell.
 */
export async function publishedSpfIncludes(db: Executor, userId: number): Promise<Map<string, Set<string>>> {
  const included = new Map<string, Set<string>>();
  for (const row of await listUserDomains(db, userId)) {
    if (!row.checks) continue;
    const tree = row.checks.spf.tree;
    included.set(row.domain, new Set(tree ? tree.children.flatMap(namesUnder) : []));
  }
  return included;
}

const namesUnder = (node: SpfNode): string[] => [node.domain.toLowerCase(), ...node.children.flatMap(namesUnder)];
