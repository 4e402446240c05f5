import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiverExample } from '@content/docs/webhooks';
import { WEBHOOK_EVENTS, WEBHOOK_MAX_ATTEMPTS } from '@contracts/webhooks';
import webhookGuide from '../../../docs/webhooks.md?raw';
import { codeBlock, codeOf, expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

beforeAll(async () => {
  await Promise.all([import('./webhook-docs-page'), import('../../components/ui/toaster')]);
});

const open = () => openDocsPage('/webhook-docs', 'webhook-docs-page');

describe('Webhook documentation (/webhook-docs)', () => {
  it('has the anchors overview, setup, events, security, examples and testing', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Webhook Documentation' })).toBeInTheDocument();
    expectAnchors(['overview', 'setup', 'events', 'security', 'examples', 'testing']);
    expect(headerLinks()).toMatchObject({ Home: '/', 'API Docs': '/api-docs', Login: '/login', Register: '/register' });
  });

  it('lists every event a webhook can subscribe to and says which are sent today', async () => {
    await open();
    const rows = screen.getAllByTestId('event-row');
    expect(rows.map((row) => row.getAttribute('data-event'))).toEqual([...WEBHOOK_EVENTS]);
    const sent = rows.filter((row) => within(row).queryByText('Sent')).map((row) => row.getAttribute('data-event'));
    expect(sent).toEqual([...WEBHOOK_EVENTS]);
    expect(codeBlock('Event envelope')).toHaveTextContent('"id": "evt_3q2Lw5mV0c1YtQ8r"');
  });

  it('states the signature scheme, the headers, 5 attempts with their waits and that redirects are not followed', async () => {
    await open();
    const security = document.getElementById('security')!;
    expect(security).toHaveTextContent('InboxPulse-Signature reads t=1764151200,v1=');
    expect(security).toHaveTextContent('HMAC-SHA256');
    expect(security).toHaveTextContent('HMAC_SHA256(secret, t + "." + body)');
    expect(security).toHaveTextContent('Answer 401 when the signature does not verify');
    const retries = screen.getByTestId('retry-rules');
    expect(retries).toHaveTextContent(
      `tried ${WEBHOOK_MAX_ATTEMPTS} times in all, waiting 30 seconds, 2 minutes, 8 minutes and 32 minutes between attempts`,
    );
    expect(retries).toHaveTextContent('Redirects are not followed');
    expect(retries).toHaveTextContent('within 10 seconds');
    const events = document.getElementById('events')!;
    for (const header of [
      'Content-Type',
      'User-Agent',
      'InboxPulse-Event',
      'InboxPulse-Delivery',
      'InboxPulse-Signature',
    ])
      expect(events).toHaveTextContent(header);
  });

  it('shows the Node and Python receivers of docs/webhooks.md, the code the repository’s tests run', async () => {
    await open();
    const node = codeOf('receiver.mjs');
    const python = codeOf('receiver.py');
    expect(node).toBe(receiverExample(webhookGuide, 'js'));
    expect(python).toBe(receiverExample(webhookGuide, 'python'));
    expect(node).toContain("createHmac('sha256', SECRET)");
    expect(node).toContain('timingSafeEqual');
    expect(python).toContain('hmac.compare_digest');
    expect(python).toContain('self.send_response(401)');
  });

  it('copies a receiver and says "Copied to clipboard"', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(within(codeBlock('receiver.py')).getByRole('button', { name: 'Copy receiver.py' }));
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(receiverExample(webhookGuide, 'python'));
  });
});
