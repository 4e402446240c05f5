import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesDmarc } from '../../../server/dmarc/aggregate-report';
import { createTestApp, signUp, type TestApp } from '../../../server/test/test-app';
import { domainYearOfReports, fillDomainDmarc } from './dmarc';
import { fillAccount } from './domains';
import { domainName, espIpsOf, tierOf, type BenchDomain } from './world';

const domain = (index: number): BenchDomain => ({
  index,
  id: 0,
  name: domainName(index),
  tier: tierOf(index),
  espIps: espIpsOf(index),
});

describe('the DMARC history bench:scale fills', () => {
  it('is the same for the same seed, so runs compare, and another seed makes another year', () => {
    const year = (seed: number) => JSON.stringify([...domainYearOfReports(domain(0), seed)]);
    expect(year(39)).toBe(year(39));
    expect(year(40)).not.toBe(year(39));
  });

  it("gives a big sender the big receivers' daily reports, its ESP passing and spoofers failing", () => {
    const reports = [...domainYearOfReports(domain(0), 39)];
    const receivers = reports.map((r) => r.orgName);
    expect(receivers.filter((name) => name === 'google.com').length).toBeGreaterThan(300);
    expect(receivers).toEqual(expect.arrayContaining(['Yahoo', 'Outlook.com', 'Enterprise Outlook']));
    const records = reports.flatMap((r) => r.records);
    const esp = new Set(espIpsOf(0));
    expect(records.filter((r) => esp.has(r.sourceIp)).every(passesDmarc)).toBe(true);
    const spoofed = records.filter((r) => /^(198\.51\.100|203\.0\.113)\./.test(r.sourceIp));
    expect(spoofed.length).toBeGreaterThan(0);
    expect(spoofed.some(passesDmarc)).toBe(false);
    expect(new Set(reports.map((r) => r.policy.domain))).toEqual(new Set([domainName(0)]));
  });

  describe('stored through the DMARC repository', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('is what the reports list and the analytics show', async () => {
      const { client, user } = await signUp(t.app);
      const { domains } = await fillAccount(t.database.db, user.id, 2);
      const stored = await fillDomainDmarc(t.database.db, user.id, domains[1], 39);
      const generated = [...domainYearOfReports(domains[1], 39)];
      expect(stored.reports).toBe(generated.length);

      const list = await client.get('/api/dmarc/reports?page=1&pageSize=10');
      expect(list.statusCode).toBe(200);
      expect(list.json().total).toBe(generated.length);

      const analytics = await client.get(`/api/dmarc/analytics?days=90&domain=${domains[1].name}`);
      expect(analytics.statusCode).toBe(200);
      const recent = generated.filter((r) => r.dateBegin.getTime() >= Date.now() - 89 * 86_400_000);
      const messages = (reports: typeof generated) =>
        reports.flatMap((r) => r.records).reduce((sum, r) => sum + r.count, 0);
      // The window's first day may or may not be in, by the hour the test runs: the total is between the two.
      expect(analytics.json().totalMessages).toBeGreaterThanOrEqual(messages(recent));
      expect(analytics.json().totalMessages).toBeLessThanOrEqual(
        messages(generated.filter((r) => r.dateBegin.getTime() >= Date.now() - 91 * 86_400_000)),
      );
      expect(analytics.json().reporters.map((r: { orgName: string }) => r.orgName)).toContain('google.com');
    });
  });
});
