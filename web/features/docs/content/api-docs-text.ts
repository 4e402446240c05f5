/** Texts of the API documentation page that are not endpoint examples (those are in @content/docs/api-reference). */

/** Part 2, section 6: documented support by plan, as written. */
export const SUPPORT_BY_PLAN = [
  'Free: community support.',
  'Starter: e-mail support in business hours.',
  'Professional: priority e-mail and phone support.',
  'Enterprise: dedicated support with an SLA.',
] as const;

export const NODE_CLIENT_EXAMPLE = (
  baseUrl: string,
) => `// Node.js 18+: no dependencies. INBOXPULSE_API_KEY holds your ipk_ key.
const BASE_URL = '${baseUrl}';

async function inboxpulse(method, path, body) {
  const res = await fetch(BASE_URL + path, {
    method,
    headers: {
      Authorization: \`Bearer \${process.env.INBOXPULSE_API_KEY}\`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status === 429) throw new Error(\`Rate limited: retry after \${res.headers.get('retry-after')} s\`);
  const data = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(\`\${res.status} \${data.code}: \${data.message}\`);
  return data;
}

const domain = await inboxpulse('POST', '/api/domains', { domain: 'example.com', type: 'sending' });
console.log(domain.verificationRecord); // publish this TXT record to verify the domain
console.log(await inboxpulse('GET', '/api/alerts'));
`;

export const PYTHON_CLIENT_EXAMPLE = (
  baseUrl: string,
) => `# Python 3: standard library only. INBOXPULSE_API_KEY holds your ipk_ key.
import json, os, urllib.error, urllib.request

BASE_URL = "${baseUrl}"

def inboxpulse(method, path, body=None):
    request = urllib.request.Request(
        BASE_URL + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": "Bearer " + os.environ["INBOXPULSE_API_KEY"], "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response) if response.status != 204 else None
    except urllib.error.HTTPError as error:
        detail = json.load(error)
        raise RuntimeError(f"{error.code} {detail['code']}: {detail['message']}") from None

domain = inboxpulse("POST", "/api/domains", {"domain": "example.com", "type": "sending"})
print(domain["verificationRecord"])  # publish this TXT record to verify the domain
print(inboxpulse("GET", "/api/alerts"))
`;
