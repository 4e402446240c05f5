/**
 * The quick-start examples of Settings: GET and POST /api/domains with a bearer key, in the three
 * languages API users reach for first. Built from the address the page was loaded from, so they
 * reach this very server when pasted.
 */

export const QUICK_START_LANGUAGES = ['curl', 'node', 'python'] as const;
export type QuickStartLanguage = (typeof QUICK_START_LANGUAGES)[number];

export const QUICK_START_LABELS: Record<QuickStartLanguage, string> = {
  curl: 'cURL',
  node: 'Node.js',
  python: 'Python',
};

/** What stands for the key when the whole key is no longer on screen; the user pastes theirs over it. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** The domain the POST example adds; the comment beside it says to use one's own. */
const EXAMPLE_DOMAIN = 'example.com';

export function quickStartExample(
  language: QuickStartLanguage,
  baseUrl: string,
  apiKey: string = API_KEY_PLACEHOLDER,
): string {
  const base = baseUrl.replace(/\/+$/, '');
  switch (language) {
    case 'curl':
      return [
        '# List your domains',
        `curl ${base}/api/domains \\`,
        `  -H "Authorization: Bearer ${apiKey}"`,
        '',
        `# Add a domain (use your own instead of ${EXAMPLE_DOMAIN})`,
        `curl -X POST ${base}/api/domains \\`,
        `  -H "Authorization: Bearer ${apiKey}" \\`,
        '  -H "Content-Type: application/json" \\',
        `  -d '{"domain": "${EXAMPLE_DOMAIN}"}'`,
      ].join('\n');
    case 'node':
      return [
        '// Node.js 18 or later: save as quick-start.mjs and run `node quick-start.mjs`',
        `const BASE_URL = '${base}';`,
        `const API_KEY = '${apiKey}';`,
        'const headers = { Authorization: `Bearer ${API_KEY}` };',
        '',
        '// List your domains',
        'const list = await fetch(`${BASE_URL}/api/domains`, { headers });',
        'console.log(list.status, await list.json());',
        '',
        `// Add a domain (use your own instead of ${EXAMPLE_DOMAIN})`,
        'const added = await fetch(`${BASE_URL}/api/domains`, {',
        "  method: 'POST',",
        "  headers: { ...headers, 'Content-Type': 'application/json' },",
        `  body: JSON.stringify({ domain: '${EXAMPLE_DOMAIN}' }),`,
        '});',
        'console.log(added.status, await added.json());',
      ].join('\n');
    case 'python':
      return [
        '# Python 3 with requests (pip install requests)',
        'import requests',
        '',
        `BASE_URL = "${base}"`,
        `API_KEY = "${apiKey}"`,
        'headers = {"Authorization": f"Bearer {API_KEY}"}',
        '',
        '# List your domains',
        'response = requests.get(f"{BASE_URL}/api/domains", headers=headers)',
        'print(response.status_code, response.json())',
        '',
        `# Add a domain (use your own instead of ${EXAMPLE_DOMAIN})`,
        `response = requests.post(f"{BASE_URL}/api/domains", headers=headers, json={"domain": "${EXAMPLE_DOMAIN}"})`,
        'print(response.status_code, response.json())',
      ].join('\n');
  }
}
