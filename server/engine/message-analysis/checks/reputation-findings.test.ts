import { describe, expect, it } from 'vitest';
import type { ConnectingIpBlocklist, ConnectingIpReport } from './connecting-ip';
import type { AnalysisFinding } from './finding';
import { connectingIpFindings, connectingIpUnavailable, REPUTATION_DEDUCTIONS } from './reputation-findings';

const clear = (list: string, zone: string, lookupUrl: string): ConnectingIpBlocklist => ({
  list,
  zone,
  status: 'clear',
  reason: null,
  lookupUrl,
});
const LISTS = [
  clear('Spamhaus ZEN', 'zen.spamhaus.org', 'https://check.spamhaus.org/'),
  clear('SpamCop', 'bl.spamcop.net', 'https://www.spamcop.net/bl.shtml'),
  clear('Barracuda', 'b.barracudacentral.org', 'https://www.barracudacentral.org/lookups'),
  clear('PSBL', 'psbl.surriel.com', 'https://psbl.org/'),
];

/** What analyzeConnectingIp returns for a well-run sender (see connecting-ip.test.ts). */
function report(overrides: Partial<ConnectingIpReport> = {}): ConnectingIpReport {
  return {
    ip: '192.0.2.10',
    reverseDns: ['mta1.brand-mail.com'],
    confirmedName: 'mta1.brand-mail.com',
    reverseDnsFailed: false,
    blocklists: LISTS,
    ...overrides,
  };
}

const problems = (findings: AnalysisFinding[]) => findings.filter((f) => f.deduction > 0);
const byId = (findings: AnalysisFinding[], id: string) => findings.find((f) => f.id === id);

describe('connectingIpFindings', () => {
  it('passes forward-confirmed reverse DNS and no listings', () => {
    const findings = connectingIpFindings(report());
    expect(findings).toEqual([
      {
        id: 'reputation.ptr-confirmed',
        category: 'reputation',
        severity: 'pass',
        title: '192.0.2.10 has forward-confirmed reverse DNS',
        detail: 'PTR mta1.brand-mail.com resolves back to 192.0.2.10.',
        deduction: 0,
        fix: null,
      },
      {
        id: 'reputation.not-blocklisted',
        category: 'reputation',
        severity: 'pass',
        title: '192.0.2.10 is on none of the 4 blocklists checked',
        detail: 'Spamhaus ZEN, SpamCop, Barracuda, PSBL',
        deduction: 0,
        fix: null,
      },
    ]);
  });

  it('deducts for no PTR, with a fix naming the IP', () => {
    const findings = connectingIpFindings(report({ reverseDns: [], confirmedName: null }));
    const finding = byId(findings, 'reputation.no-ptr');
    expect(finding).toMatchObject({
      severity: 'error',
      deduction: REPUTATION_DEDUCTIONS['reputation.no-ptr'].deduction,
      title: '192.0.2.10 has no reverse DNS (PTR) record',
    });
    expect(finding?.fix).toContain('PTR record');
    expect(finding?.fix).toContain('pointing back to 192.0.2.10');
  });

  it('deducts less for a PTR that does not resolve back, and says AAAA for IPv6', () => {
    const v4 = byId(
      connectingIpFindings(report({ ip: '203.0.113.66', reverseDns: ['dyn-66.isp.example'], confirmedName: null })),
      'reputation.ptr-not-confirmed',
    );
    expect(v4).toMatchObject({ severity: 'warning', deduction: 1 });
    expect(v4?.detail).toContain('PTR: dyn-66.isp.example');
    const v6 = byId(
      connectingIpFindings(report({ ip: '2001:db8::25', reverseDns: ['x.example'], confirmedName: null })),
      'reputation.ptr-not-confirmed',
    );
    expect(v6?.fix).toContain('an AAAA record');
  });

  it('only informs when the reverse lookup failed', () => {
    const findings = connectingIpFindings(report({ reverseDns: [], confirmedName: null, reverseDnsFailed: true }));
    expect(byId(findings, 'reputation.ptr-lookup-failed')).toMatchObject({ severity: 'info', deduction: 0 });
    expect(problems(findings)).toEqual([]);
  });

  it('deducts per listing, with its reason and where to delist; unknown answers are never listings', () => {
    const blocklists: ConnectingIpBlocklist[] = [
      { ...LISTS[0], status: 'listed', reason: 'XBL: an exploited or infected host' },
      { ...LISTS[1], status: 'listed', reason: 'reported as a spam source by SpamCop users' },
      {
        ...LISTS[2],
        status: 'unknown',
        reason: 'The list answered 127.255.255.254, which is not a listing code (the query was likely refused).',
      },
      { ...LISTS[3], status: 'unknown', reason: 'The lookup failed (ESERVFAIL).' },
    ];
    const findings = connectingIpFindings(report({ ip: '203.0.113.66', blocklists }));
    expect(problems(findings).map((f) => [f.id, f.deduction])).toEqual([
      ['reputation.blocklisted:zen.spamhaus.org', 1.5],
      ['reputation.blocklisted:bl.spamcop.net', 1.5],
    ]);
    const spamhaus = byId(findings, 'reputation.blocklisted:zen.spamhaus.org');
    expect(spamhaus).toMatchObject({
      category: 'reputation',
      severity: 'error',
      title: '203.0.113.66 is listed on Spamhaus ZEN',
      detail: 'Spamhaus ZEN (zen.spamhaus.org): XBL: an exploited or infected host.',
    });
    expect(spamhaus?.fix).toContain('request removal at https://check.spamhaus.org/');
    const unknown = byId(findings, 'reputation.blocklists-unknown');
    expect(unknown).toMatchObject({ severity: 'info', deduction: 0, title: '2 blocklists could not be checked' });
    expect(unknown?.detail).toContain('Barracuda: The list answered 127.255.255.254');
    expect(byId(findings, 'reputation.not-blocklisted')).toBeUndefined();
  });

  it('tells a Spamhaus PBL listing (policy, not spam) to send through a mail server', () => {
    const blocklists = [
      {
        ...LISTS[0],
        status: 'listed' as const,
        reason: 'PBL: an end-user address that should not send mail directly (ISP policy)',
      },
    ];
    const finding = byId(connectingIpFindings(report({ blocklists })), 'reputation.blocklisted:zen.spamhaus.org');
    expect(finding?.fix).toMatch(/^This is an end-user \(dynamic or residential\) address: send through your ESP/);
  });

  it('gives every problem a fix and unique ids', () => {
    const findings = connectingIpFindings(
      report({
        reverseDns: [],
        confirmedName: null,
        blocklists: LISTS.map((l) => ({ ...l, status: 'listed' as const, reason: 'listed' })),
      }),
    );
    expect(new Set(findings.map((f) => f.id)).size).toBe(findings.length);
    for (const f of problems(findings)) expect(f.fix).toBeTruthy();
    expect(problems(findings).reduce((sum, f) => sum + f.deduction, 0)).toBe(7.5);
  });

  it('has a finding for an IP that could not be checked, costing nothing', () => {
    expect(connectingIpUnavailable('', 'The SMTP session recorded no valid IP address.')).toMatchObject({
      id: 'reputation.unavailable',
      severity: 'info',
      deduction: 0,
      fix: null,
    });
  });
});
