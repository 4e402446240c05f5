import type { Executor } from '../platform/db/client';
import { domainDnsChanges } from '../platform/db/schema/index';
import type { DnsChange } from './dns-changes';
import type { DomainRow } from './domains.repo';

/** Appends a check's record changes to the domain's DNS history (domain_dns_changes). */
export async function recordDnsChanges(
  ex: Executor,
  row: Pick<DomainRow, 'id' | 'userId'>,
  changes: readonly DnsChange[],
): Promise<void> {
  if (changes.length === 0) return;
  await ex.insert(domainDnsChanges).values(changes.map((c) => ({ ...c, userId: row.userId, domainId: row.id })));
}
