import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY, FAQ } from '@content/index';
import { SCREENS } from '@content/screens';
import { createTestApp, TestClient, type TestApp } from '../test/test-app';
import { buildKnowledge, FAQ_NEEDING, type ScreenList } from './knowledge';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let n = 0;
async function ask(app: TestApp, message: string) {
  n++;
  // A client address per question keeps the suite under the chat rate limit.
  const res = await new TestClient(app.app, `127.20.${Math.floor(n / 250)}.${n % 250}`).post('/api/chatbot', {
    message,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().response as string;
}

describe('chat assistant (retrieval over the product’s own content)', () => {
  it.each([
    ['How much does the Professional plan cost?', ['$49']],
    ['Is there a free plan?', ['$0', 'no credit card']],
    ['How many domains can I monitor on the free plan?', ['1 domain']],
    ['Does the free plan include API access?', ['No API access']],
    ['Which ESPs do you support?', ['SendGrid', 'Klaviyo', 'Brevo', 'GetResponse']],
    ['Do you integrate with Klaviyo?', ['Klaviyo']],
    ['Which mail transfer agents work with InboxPulse?', ['Postfix', 'PowerMTA', 'KumoMTA']],
    ['Do you support Postfix?', ['Postfix']],
    ['How do I run an inbox placement test?', ['test address']],
    ['How do I verify my domain?', ['_inboxpulse.']],
    ['How do DMARC reports work?', ['rua=']],
    ['Can I get a refund?', ['30-day money-back']],
    ['Can I change plans later?', ['pro-rata']],
    ['How long is my data kept?', ['7 days', '90 days']],
    ['How do I contact support?', [COMPANY.supportEmail]],
    ['Which alert channels are available?', ['Slack']],
    ['How long does setup take?', ['10 minutes']],
    ['Do you monitor blacklists?', ['blacklist']],
  ])('answers "%s" with the right fact', async (question, facts) => {
    const answer = await ask(t, question);
    for (const fact of facts) expect(answer).toContain(fact);
    expect(answer.startsWith('I can help with')).toBe(false);
  });

  it.each(["What's the weather like in Paris today?", 'Tell me a joke about cats', 'Who won the football world cup?'])(
    'says honestly what it can help with for "%s"',
    async (question) => {
      const answer = await ask(t, question);
      expect(answer).toMatch(/^I can help with questions about InboxPulse: plans and pricing, features/);
    },
  );

  it('enforces the 500-character limit and refuses blank messages', async () => {
    const long = await new TestClient(t.app, '127.21.0.1').post('/api/chatbot', { message: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Message must be at most 500 characters');
    const blank = await new TestClient(t.app, '127.21.0.1').post('/api/chatbot', { message: '   ' });
    expect(blank.json().message).toBe('Message is required');
    expect(
      (await new TestClient(t.app, '127.21.0.1').post('/api/chatbot', { message: 'x'.repeat(500) })).statusCode,
    ).toBe(200);
  });

  it('rate limits one client', async () => {
    const client = new TestClient(t.app, '127.22.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await client.post('/api/chatbot', { message: 'pricing' })).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
  });
});

/** The screens list with some screens built or not, to see the knowledge follow it. */
function screensWith(live: (id: keyof ScreenList) => boolean): ScreenList {
  return Object.fromEntries(
    Object.entries(SCREENS).map(([id, screen]) => [id, { ...screen, live: live(id as keyof ScreenList) }]),
  ) as ScreenList;
}

const SITE_PATH = /(?<![\w./:<>-])\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*/g;
const NOT_YET = /not available in InboxPulse yet/i;
const doc = (docs: ReturnType<typeof buildKnowledge>, id: string) => docs.find((d) => d.id === id)!;

describe('chat assistant knowledge: what the product does today (content/screens.ts)', () => {
  it('never sends anyone to a page that is not built', () => {
    const live = new Set(
      Object.values(SCREENS)
        .filter((s) => s.live)
        .map((s) => s.path),
    );
    for (const d of buildKnowledge())
      for (const path of d.text.match(SITE_PATH) ?? []) expect(live.has(path), `${d.id} links ${path}`).toBe(true);
  });

  it('never tells anyone to use a screen that is not built without saying it is not available yet', () => {
    const notBuilt = Object.values(SCREENS).filter((s) => !s.live && s.area === 'app');
    for (const d of buildKnowledge()) {
      for (const screen of notBuilt) {
        const instructs = new RegExp(`\\b(Open|on the|in) ${screen.name}\\b`).test(d.text);
        if (instructs) expect(d.text, `${d.id} sends users to ${screen.name}`).toMatch(NOT_YET);
      }
    }
  });

  it('says which screens work today and which are coming', () => {
    const today = doc(buildKnowledge(), 'product-today').text;
    for (const screen of Object.values(SCREENS).filter((s) => s.area === 'app' && s.path !== '/')) {
      const [working, coming] = today.split('Coming soon');
      expect(screen.live ? working : coming, screen.name).toContain(`- ${screen.name}: `);
    }
  });

  it('replaces a how-to whose screen is not built, and brings it back once it is', () => {
    const allBuilt = buildKnowledge(screensWith(() => true));
    expect(allBuilt.some((d) => NOT_YET.test(d.text))).toBe(false);
    expect(doc(allBuilt, 'guide-connect-esp').text).toMatch(/Test Connection/);
    expect(doc(allBuilt, 'esp-list').text).toMatch(/Connect one on the Integrations page/);
    expect(doc(allBuilt, 'guide-plans').text).toMatch(/See \/pricing\./);

    const noIntegrations = buildKnowledge(screensWith((id) => id !== 'integrations'));
    const guide = doc(noIntegrations, 'guide-connect-esp').text;
    expect(guide).toMatch(
      /^Connecting an email service provider \(ESP\) is not available in InboxPulse yet: the Integrations screen is still being built\./,
    );
    expect(guide).toMatch(/What you can do in InboxPulse today:\n- Dashboard: /);
    expect(guide).not.toMatch(/Test Connection|Install/);
    // The facts stay (which ESPs), with what is not available yet.
    const esps = doc(noIntegrations, 'esp-list').text;
    expect(esps).toMatch(/SendGrid/);
    expect(esps).not.toMatch(/Connect one on the Integrations page/);
    expect(esps).toMatch(
      /Not available in InboxPulse yet: the Integrations screen is still being built \(to install an ESP plugin with an API key/,
    );
  });

  it('keeps the facts of a passage that links an unbuilt page, without the link', () => {
    const noPricing = buildKnowledge(screensWith((id) => id !== 'pricing'));
    const plans = doc(noPricing, 'guide-plans').text;
    expect(plans).toMatch(/Professional: \$49\/month/);
    expect(plans).not.toMatch(/\/pricing/);
    expect(plans).toMatch(/Not available in InboxPulse yet: the Pricing page is still being built/);
  });

  it('knows every FAQ question it notes', () => {
    for (const question of Object.keys(FAQ_NEEDING)) expect(FAQ.map((f) => f.question)).toContain(question);
  });

  it('answers what works today over HTTP', async () => {
    const answer = await ask(t, 'Which screens are available, and what is coming soon?');
    expect(answer).toMatch(/What you can do in InboxPulse today:/);
    expect(answer).toMatch(/- Domains: add a sending domain/);
  });

  it('describes connecting an email service provider, now that the Integrations screen is built', async () => {
    const answer = await ask(t, 'How do I connect my email service provider?');
    expect(answer).not.toMatch(NOT_YET);
    expect(answer).toMatch(/Integrations/);
  });

  it('says where to see why placement dropped: the domain timeline', async () => {
    const answer = await ask(t, 'Why did my inbox placement drop? Where do I see it over time?');
    expect(answer).toMatch(/deliverability timeline/);
  });

  it('describes the alert settings, now that the Alerts screen is built', async () => {
    const answer = await ask(t, 'How do I change my alert thresholds?');
    expect(answer).not.toMatch(NOT_YET);
    expect(answer).toMatch(/Alert Settings/);
  });
});

describe('chat assistant with an OpenAI-compatible LLM', () => {
  let llm: Server;
  let requests: { auth?: string; body: any }[];
  let fail = false;
  let app: TestApp;

  beforeAll(async () => {
    requests = [];
    llm = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      requests.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
      if (fail) return res.writeHead(500).end('{"error":{"message":"overloaded"}}');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'The Professional plan is $49 a month.' },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    });
    await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
    app = await createTestApp({
      env: { CHAT_LLM_URL: url, CHAT_LLM_API_KEY: 'sk-test', CHAT_LLM_MODEL: 'test-model' },
    });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((r) => llm.close(r));
  });

  it('sends the retrieved passages and the question, and returns the model’s answer', async () => {
    const answer = await ask(app, 'How much does the Professional plan cost?');
    expect(answer).toBe('The Professional plan is $49 a month.');
    const [call] = requests;
    expect(call.auth).toBe('Bearer sk-test');
    expect(call.body.model).toBe('test-model');
    const user = call.body.messages.find((m: { role: string }) => m.role === 'user').content as string;
    expect(user).toContain('Question: How much does the Professional plan cost?');
    expect(user).toContain('$49');
    // The model always learns which screens are built, so it cannot describe an unbuilt one as usable.
    expect(user).toContain('What works in InboxPulse today');
    expect(call.body.messages.find((m: { role: string }) => m.role === 'system').content).toMatch(/not available yet/);
  });

  it('falls back to the retrieval answer when the model fails', async () => {
    fail = true;
    const answer = await ask(app, 'How much does the Professional plan cost?');
    expect(answer).toContain('Professional plan: $49 per month');
  });

  it('does not call the model for an off-topic question', async () => {
    const before = requests.length;
    expect(await ask(app, 'Tell me a joke about cats')).toMatch(/^I can help with/);
    expect(requests.length).toBe(before);
  });
});
