import { recordDnsChanges } from '../../../server/domains/dns-changes.repo';
import type { DnsChange } from '../../../server/domains/dns-changes';
import type { Db } from '../../../server/platform/db/client';
import { seeded } from './random';
import { dayAgo, DAYS, type BenchDomain } from './world';

/*
 * The year's record changes per domain (the timeline's DNS history), as a check writes them: an SPF include
 * added, a DKIM key rotated, the DMARC policy tightened. `observedAt` moves each to the day it was seen.
 */
function changesOf(domain: BenchDomain, random: ReturnType<typeof seeded>): (DnsChange & { observedAt: Date })[] {
  const at = () => new Date(dayAgo(random.int(1, DAYS)).getTime() + random.int(0, 86_399_000));
  const spf = `v=spf1 include:sendgrid.net ~all`;
  const changes: (DnsChange & { observedAt: Date })[] = [
    {
      record: 'spf',
      before: spf,
      after: `v=spf1 include:sendgrid.net include:_spf.google.com ~all`,
      statusBefore: 'valid',
      statusAfter: 'valid',
      summary: 'SPF: include:_spf.google.com added',
      observedAt: at(),
    },
  ];
  if (random.chance(0.5))
    changes.push({
      record: 'dkim',
      before: 's1: v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAold',
      after: 's1: v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnew',
      statusBefore: 'valid',
      statusAfter: 'valid',
      summary: 'DKIM: the key of selector s1 changed',
      observedAt: at(),
    });
  if (random.chance(0.3))
    changes.push({
      record: 'dmarc',
      before: `v=DMARC1; p=none; rua=mailto:dmarc@${domain.name}`,
      after: `v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain.name}`,
      statusBefore: 'valid',
      statusAfter: 'valid',
      summary: 'DMARC: policy none -> quarantine',
      observedAt: at(),
    });
  return changes;
}

export async function fillDnsChanges(db: Db, userId: number, domains: readonly BenchDomain[], seed: number) {
  const random = seeded(seed * 86_028_121);
  const started = performance.now();
  let count = 0;
  for (const domain of domains) {
    const changes = changesOf(domain, random);
    await recordDnsChanges(db, { id: domain.id, userId }, changes);
    count += changes.length;
  }
  console.log(`dns changes: ${count} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
