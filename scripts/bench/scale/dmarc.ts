import type { AggregateRecord, AggregateReport } from '../../../server/dmarc/aggregate-report';
import { beginReport, finishReport, insertRecords, ReportTotals } from '../../../server/dmarc/dmarc.repo';
import type { Db } from '../../../server/platform/db/client';
import { inLanes, progress } from './progress';
import { seeded, type Random } from './random';
import { dayAgo, DAYS, type BenchDomain, type Tier } from './world';

/*
 * A year of DMARC aggregate reports per domain, stored as the intake stores a parsed report (beginReport,
 * insertRecords, finishReport: the row, its records, its sums in dmarc_source_days), a domain's year in one
 * transaction. Each receiver reports a domain on the days mail reached it, so how often depends on the domain's
 * size; each report holds a record per source IP seen that day: the domain's ESP IPs passing, sometimes a
 * forwarder (SPF broken, DKIM mostly intact) and sometimes a spoofer failing both.
 */

export interface Receiver {
  /** report_metadata/org_name and email as these receivers write them. */
  orgName: string;
  email: string;
  /** Where the receiver names the recipient domain (envelope_to), or null when it leaves it out. */
  envelopeTo: string | null;
  /** The chance of a report on a given day, by the domain's size. */
  daily: Record<Tier, number>;
  reportId: (random: Random, begin: Date) => string;
}

const digits = (random: Random, n: number) => Array.from({ length: n }, () => random.int(0, 9)).join('');
const hex = (random: Random, n: number) => Array.from({ length: n }, () => random.int(0, 15).toString(16)).join('');

// The big mailbox providers' names and addresses as their reports carry them; the small reporters' are those of
// the real reports in server/dmarc/fixtures (FastMail, and company mail servers that send reports).
export const RECEIVERS: Receiver[] = [
  {
    orgName: 'google.com',
    email: 'noreply-dmarc-support@google.com',
    envelopeTo: null,
    daily: { big: 0.9, medium: 0.15, small: 0.02 },
    reportId: (random) => digits(random, 20),
  },
  {
    orgName: 'Yahoo',
    email: 'dmarchelp@yahooinc.com',
    envelopeTo: null,
    daily: { big: 0.2, medium: 0.03, small: 0 },
    reportId: (random, begin) => `${begin.getTime() / 1000}.${digits(random, 6)}`,
  },
  {
    orgName: 'Outlook.com',
    email: 'dmarcreport@microsoft.com',
    envelopeTo: 'hotmail.com',
    daily: { big: 0.4, medium: 0.05, small: 0.005 },
    reportId: (random) => hex(random, 32),
  },
  {
    orgName: 'Enterprise Outlook',
    email: 'dmarcreport@microsoft.com',
    envelopeTo: null,
    daily: { big: 0.1, medium: 0.01, small: 0 },
    reportId: (random) => hex(random, 32),
  },
  {
    orgName: 'Mail.Ru',
    email: 'dmarc_support@corp.mail.ru',
    envelopeTo: 'mail.ru',
    daily: { big: 0.05, medium: 0, small: 0 },
    reportId: (random) => digits(random, 19),
  },
  {
    orgName: 'FastMail Pty Ltd',
    email: 'reports@fastmaildmarc.com',
    envelopeTo: null,
    daily: { big: 0.04, medium: 0.005, small: 0.001 },
    reportId: (random) => digits(random, 9),
  },
  {
    orgName: 'veeam.com',
    email: 'noreply.it.dmarc@veeam.com',
    envelopeTo: null,
    daily: { big: 0.03, medium: 0, small: 0 },
    reportId: (random) => hex(random, 32),
  },
  {
    orgName: 'ikea.com',
    email: 'double-bounce@ikea.com',
    envelopeTo: 'ikea.com',
    daily: { big: 0.03, medium: 0.002, small: 0 },
    reportId: (random) => digits(random, 12),
  },
];

/** Messages a receiver sees from one ESP IP in a day. */
const VOLUME: Record<Tier, [number, number]> = { big: [300, 4000], medium: [20, 400], small: [1, 30] };
/** How many of the ESP IPs a day's mail went out from: a big sender also uses its ESP's shared pool. */
const IPS_USED: Record<Tier, number> = { big: 4, medium: 2, small: 1 };
const SHARED_POOL = Array.from({ length: 4 }, (_, n) => `198.19.255.${n + 1}`);
/** How many forwarders and spoofers a day's report lists: a big brand's mail is forwarded and forged widely. */
const FORWARDERS: Record<Tier, [number, number]> = { big: [5, 20], medium: [0, 4], small: [0, 1] };
const SPOOFERS: Record<Tier, [number, number]> = { big: [1, 8], medium: [0, 2], small: [0, 1] };
const POLICIES = ['reject', 'quarantine', 'none'] as const;

function espRecord(domain: BenchDomain, ip: string, count: number, envelopeTo: string | null): AggregateRecord {
  return {
    sourceIp: ip,
    count,
    disposition: 'none',
    dkimResult: 'pass',
    spfResult: 'pass',
    reason: null,
    headerFrom: domain.name,
    envelopeFrom: `bounces.${domain.name}`,
    envelopeTo,
    dkimAuth: [{ domain: domain.name, selector: 's1', result: 'pass', humanResult: null }],
    spfAuth: [{ domain: `bounces.${domain.name}`, scope: 'mfrom', result: 'pass', humanResult: null }],
  };
}

/** A mailing list or forwarding service (TEST-NET-1): SPF fails on its IP; DKIM survives unless the list rewrote the message. */
function forwardedRecord(domain: BenchDomain, random: Random, envelopeTo: string | null): AggregateRecord {
  const dkimIntact = random.chance(0.7);
  return {
    sourceIp: `192.0.2.${random.int(1, 254)}`,
    count: random.int(1, 25),
    disposition: 'none',
    dkimResult: dkimIntact ? 'pass' : 'fail',
    spfResult: 'fail',
    reason: dkimIntact ? null : [{ type: random.chance(0.5) ? 'mailing_list' : 'forwarded', comment: null }],
    headerFrom: domain.name,
    envelopeFrom: `bounces.${domain.name}`,
    envelopeTo,
    dkimAuth: [{ domain: domain.name, selector: 's1', result: dkimIntact ? 'pass' : 'fail', humanResult: null }],
    spfAuth: [{ domain: `bounces.${domain.name}`, scope: 'mfrom', result: 'softfail', humanResult: null }],
  };
}

/** Someone else's server (TEST-NET-2 and -3) using the domain in From: nothing aligned passes, the policy applies. */
function spoofedRecord(
  domain: BenchDomain,
  random: Random,
  policy: string,
  envelopeTo: string | null,
): AggregateRecord {
  const from = random.chance(0.5) ? `mail${random.int(1, 99)}.spam-${random.int(1, 500)}.example` : domain.name;
  return {
    sourceIp: `${random.chance(0.5) ? '198.51.100' : '203.0.113'}.${random.int(1, 254)}`,
    count: random.int(1, 60),
    disposition: policy,
    dkimResult: 'fail',
    spfResult: 'fail',
    reason: null,
    headerFrom: domain.name,
    envelopeFrom: from,
    envelopeTo,
    dkimAuth: [],
    spfAuth: [{ domain: from, scope: 'mfrom', result: random.chance(0.5) ? 'fail' : 'none', humanResult: null }],
  };
}

/** One receiver's report of one domain for the day that begins at `begin`. */
export function dmarcReport(domain: BenchDomain, receiver: Receiver, begin: Date, random: Random): AggregateReport {
  const policy = POLICIES[domain.index % POLICIES.length];
  const [low, high] = VOLUME[domain.tier];
  const espIps = [...domain.espIps.slice(0, IPS_USED[domain.tier]), ...(domain.tier === 'big' ? SHARED_POOL : [])];
  const records = espIps.map((ip) => espRecord(domain, ip, random.int(low, high), receiver.envelopeTo));
  for (let i = random.int(...FORWARDERS[domain.tier]); i > 0; i--)
    records.push(forwardedRecord(domain, random, receiver.envelopeTo));
  for (let i = random.int(...SPOOFERS[domain.tier]); i > 0; i--)
    records.push(spoofedRecord(domain, random, policy, receiver.envelopeTo));
  return {
    schema: 'rfc7489',
    version: '1.0',
    orgName: receiver.orgName,
    email: receiver.email,
    reportId: receiver.reportId(random, begin),
    dateBegin: begin,
    dateEnd: new Date(begin.getTime() + 86_399_000),
    generator: null,
    policy: {
      domain: domain.name,
      adkim: 'r',
      aspf: 'r',
      p: policy,
      sp: policy,
      np: null,
      pct: 100,
      fo: null,
      testing: null,
      discoveryMethod: null,
    },
    records,
  };
}

/** Every report of one domain's year, in the order they arrive. */
export function* domainYearOfReports(domain: BenchDomain, seed: number): Generator<AggregateReport> {
  const random = seeded(seed * 7919 + domain.index);
  for (let daysAgo = DAYS; daysAgo >= 1; daysAgo--) {
    const begin = dayAgo(daysAgo);
    for (const receiver of RECEIVERS)
      if (random.chance(receiver.daily[domain.tier])) yield dmarcReport(domain, receiver, begin, random);
  }
}

/** Stores one domain's year of reports in one transaction; returns how many reports and records. */
export async function fillDomainDmarc(
  db: Db,
  userId: number,
  domain: BenchDomain,
  seed: number,
): Promise<{ reports: number; records: number }> {
  return db.transaction(async (tx) => {
    let reports = 0;
    let records = 0;
    for (const report of domainYearOfReports(domain, seed)) {
      const start = report.dateBegin.getTime() / 1000;
      // Mailed and authenticated, as a receiver's report arrives at the intake address.
      const id = await beginReport(tx, userId, report, {
        fileName: `${report.orgName}!${domain.name}!${start}!${start + 86_399}.xml.gz`,
        rawSize: 400 + 350 * report.records.length,
        senderAuthenticated: true,
      });
      if (id === undefined) throw new Error(`report ${report.reportId} of ${report.orgName} was taken as a duplicate`);
      await insertRecords(tx, id, report.records);
      const totals = new ReportTotals();
      totals.add(report.records);
      await finishReport(tx, id, totals, []);
      reports++;
      records += report.records.length;
    }
    return { reports, records };
  });
}

/** Every domain's year of reports, `lanes` domains at a time. */
export async function fillDmarc(db: Db, userId: number, domains: readonly BenchDomain[], seed: number, lanes: number) {
  const shown = progress('dmarc reports', domains.length);
  let records = 0;
  await inLanes(domains, lanes, async (domain) => {
    const stored = await fillDomainDmarc(db, userId, domain, seed);
    records += stored.records;
    shown.step(records);
  });
  shown.end(records);
}
