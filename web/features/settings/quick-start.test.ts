import { describe, expect, it } from 'vitest';
import { API_KEY_PLACEHOLDER, QUICK_START_LANGUAGES, quickStartExample } from './quick-start';

const BASE = 'https://app.inboxpulse.example';
const KEY = 'ipk_AbC123-_xyz';

describe('quick-start examples', () => {
  it.each(QUICK_START_LANGUAGES)('%s: lists and adds domains at the real base URL with the bearer key', (language) => {
    const code = quickStartExample(language, BASE, KEY);
    expect(code).toContain(`${BASE}`);
    expect(code.match(/\/api\/domains/g)?.length).toBeGreaterThanOrEqual(language === 'curl' ? 2 : 1);
    expect(code).toContain(KEY);
    expect(code).toMatch(/Bearer/);
    expect(code).toContain('example.com');
    expect(code).not.toContain(API_KEY_PLACEHOLDER);
  });

  it.each(QUICK_START_LANGUAGES)('%s: without a key, a placeholder the user replaces', (language) => {
    expect(quickStartExample(language, BASE)).toContain(API_KEY_PLACEHOLDER);
  });

  it('cURL sends the header and the JSON body a POST needs', () => {
    const code = quickStartExample('curl', `${BASE}/`, KEY);
    expect(code).toContain(`curl ${BASE}/api/domains \\\n  -H "Authorization: Bearer ${KEY}"`);
    expect(code).toContain(`curl -X POST ${BASE}/api/domains \\`);
    expect(code).toContain(`-H "Content-Type: application/json"`);
    expect(code).toContain(`-d '{"domain": "example.com"}'`);
    expect(code).not.toContain(`${BASE}//api`);
  });

  it('the Node.js example is a valid ES module that calls fetch with the key', async () => {
    const code = quickStartExample('node', BASE, KEY);
    // It parses as the body of an async function (top-level await in a .mjs file)...
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (...args: unknown[]) => Promise<void>;
    const run = new AsyncFunction('fetch', 'console', code);
    // ...and, run, makes the two calls with the key.
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return { status: 200, json: async () => ({}) };
    };
    await run(fakeFetch, { log: () => {} });
    expect(calls.map(({ url, init }) => `${init.method ?? 'GET'} ${url}`)).toEqual([
      `GET ${BASE}/api/domains`,
      `POST ${BASE}/api/domains`,
    ]);
    expect(calls[0].init.headers).toEqual({ Authorization: `Bearer ${KEY}` });
    expect(calls[1].init.headers).toEqual({ Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' });
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ domain: 'example.com' });
  });

  it('the Python example uses requests with the key in the header and a JSON body', () => {
    const code = quickStartExample('python', BASE, KEY);
    expect(code).toContain('import requests');
    expect(code).toContain(`API_KEY = "${KEY}"`);
    expect(code).toContain('headers = {"Authorization": f"Bearer {API_KEY}"}');
    expect(code).toContain('requests.get(f"{BASE_URL}/api/domains", headers=headers)');
    expect(code).toContain('requests.post(f"{BASE_URL}/api/domains", headers=headers, json={"domain": "example.com"})');
  });
});
