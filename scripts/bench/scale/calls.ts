import type { BenchDomain } from './world';

/*
 * What users open every day, as the web app asks for it (web/features/<page>/api.ts): the dashboard's four
 * views, DMARC analytics over 7, 30 and 90 days (all domains, and the biggest domain's 90), a domain's timeline
 * and diagnosis over 90 days, the reputation page (IPs and domains), the domains list, the alerts list and the
 * DMARC reports list at its first page and a deep one.
 */
export function dailyCalls(domain: BenchDomain): Record<string, string> {
  return {
    'dashboard overview': '/api/dashboard/overview',
    'dashboard compliance': '/api/dashboard/compliance',
    'dashboard trends 30d': '/api/dashboard/trends?days=30',
    'dashboard email metrics': '/api/email-metrics',
    'dmarc analytics 7d': '/api/dmarc/analytics?days=7',
    'dmarc analytics 30d': '/api/dmarc/analytics?days=30',
    'dmarc analytics 90d': '/api/dmarc/analytics?days=90',
    'dmarc analytics 90d one domain': `/api/dmarc/analytics?days=90&domain=${domain.name}`,
    'domain timeline 90d': `/api/domains/${domain.id}/timeline?days=90`,
    'domain diagnosis 90d': `/api/domains/${domain.id}/diagnosis?days=90`,
    'reputation ips': '/api/ip-addresses',
    'reputation domains': '/api/reputation/domains',
    'domains list': '/api/domains',
    'alerts list': '/api/alerts',
    'dmarc reports page 1': '/api/dmarc/reports?page=1&pageSize=10',
    'dmarc reports page 50': '/api/dmarc/reports?page=50&pageSize=10',
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)];
const ms = (n: number) => Math.round(n * 10) / 10;

/**
 * Each call `repeats` times one after another (after two unmeasured, so a first request's cold caches are not
 * counted), as one signed-in user; a call that does not answer 200 stops the bench.
 */
export async function timeCalls(appUrl: string, cookie: string, calls: Record<string, string>, repeats: number) {
  const figures: Record<string, { p50: number; p95: number }> = {};
  for (const [name, path] of Object.entries(calls)) {
    const times: number[] = [];
    for (let i = -2; i < repeats; i++) {
      const started = performance.now();
      const res = await fetch(`${appUrl}${path}`, { headers: { cookie } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${name} (GET ${path}) answered ${res.status}: ${body.slice(0, 300)}`);
      if (i >= 0) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    figures[name] = { p50: ms(percentile(times, 50)), p95: ms(percentile(times, 95)) };
    console.log(`${name}: p50 ${figures[name].p50} ms, p95 ${figures[name].p95} ms`);
  }
  return figures;
}
