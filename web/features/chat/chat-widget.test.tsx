import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_MAX_LENGTH as CONTRACT_MAX_LENGTH } from '@contracts/chat';
import type { ErrorBody } from '@contracts/errors';
import { COMPANY } from '@content/company';
import { SCREENS } from '@content/screens';
import { MemoryRouter } from 'react-router';
import { CHAT_MAX_LENGTH, EMPTY_REPLY_MESSAGE, FAILURE_MESSAGE } from './chat-texts';
import { ChatWidget } from './chat-widget';

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch stub whose answer the test releases when it wants, to observe the pending state. */
function deferredFetch() {
  let release: (res: Response) => void = () => {};
  const mock = vi.fn(
    (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Promise<Response>((resolve) => {
        release = resolve;
      }),
  );
  vi.stubGlobal('fetch', mock);
  return { mock, release: (res: Response) => act(async () => release(res)) };
}

function stubReply(body: unknown, status = 200) {
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => jsonResponse(body, status));
  vi.stubGlobal('fetch', mock);
  return mock;
}

async function openChat() {
  const user = userEvent.setup();
  render(<ChatWidget />);
  await user.click(screen.getByRole('button', { name: 'Open chat assistant' }));
  const panel = await screen.findByTestId('chat-panel');
  const input = within(panel).getByRole('textbox', { name: 'Message' });
  return { user, panel, input };
}

const messages = (from?: 'bot' | 'user') =>
  screen.getAllByTestId('chat-message').filter((m) => !from || m.getAttribute('data-from') === from);

describe('ChatWidget', () => {
  it('opens a panel titled as the assistant, with a welcome message, and closes again', async () => {
    const { user, panel } = await openChat();
    expect(within(panel).getByRole('heading', { name: 'InboxPulse Assistant' })).toBeInTheDocument();
    expect(messages('bot')).toHaveLength(1);
    expect(messages('bot')[0]).toHaveTextContent(/InboxPulse Assistant/);
    expect(within(panel).getByRole('button', { name: 'Send message' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Close chat assistant' }));
    expect(screen.getByTestId('chat-panel')).not.toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Open chat assistant' }));
    expect(screen.getByTestId('chat-panel')).toBeVisible();
  });

  it('is a non-modal dialog that Escape closes, from the input or a button in it, giving focus back to the chat button', async () => {
    const { user, panel, input } = await openChat();
    expect(screen.getByRole('dialog', { name: 'InboxPulse Assistant' })).toBe(panel);
    expect(input).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(panel).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Open chat assistant' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Open chat assistant' }));
    within(panel).getByRole('button', { name: 'Close chat' }).focus();
    await user.keyboard('{Escape}');
    expect(panel).not.toBeVisible();
  });

  it('Enter sends the trimmed message to POST /api/chatbot, clears the input and shows the reply', async () => {
    const fetchMock = stubReply({ response: 'Free is $0 forever.' });
    const { user, input } = await openChat();
    await user.type(input, '  What does Free cost?  {Enter}');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/chatbot');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ message: 'What does Free cost?' });
    expect(input).toHaveValue('');
    expect(messages('user')[0]).toHaveTextContent('What does Free cost?');
    expect(await screen.findByText('Free is $0 forever.')).toBeInTheDocument();
  });

  it('Shift+Enter inserts a newline and does not send', async () => {
    const fetchMock = stubReply({ response: 'ok' });
    const { user, input } = await openChat();
    await user.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(input).toHaveValue('line one\nline two');
    expect(messages('user')).toHaveLength(0);
  });

  it('cannot send a blank or whitespace-only message', async () => {
    const fetchMock = stubReply({ response: 'ok' });
    const { user, panel, input } = await openChat();
    await user.type(input, '   {Enter}');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(within(panel).getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(messages('user')).toHaveLength(0);
  });

  it('limits the input to 500 characters and shows a counter', async () => {
    expect(CHAT_MAX_LENGTH).toBe(CONTRACT_MAX_LENGTH);
    const { user, panel, input } = await openChat();
    expect(input).toHaveAttribute('maxLength', '500');
    expect(within(panel).getByTestId('chat-counter')).toHaveTextContent('0/500');
    await user.click(input);
    await user.paste('x'.repeat(520));
    expect((input as HTMLTextAreaElement).value).toHaveLength(500);
    expect(within(panel).getByTestId('chat-counter')).toHaveTextContent('500/500');
  });

  it('disables the input and send button and shows a typing indicator while a reply is pending', async () => {
    const { release } = deferredFetch();
    const { user, panel, input } = await openChat();
    await user.type(input, 'Hello{Enter}');

    expect(input).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(screen.getByTestId('chat-typing')).toBeInTheDocument();

    await release(jsonResponse({ response: 'Hi there' }));
    expect(await screen.findByText('Hi there')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-typing')).not.toBeInTheDocument();
    expect(input).toBeEnabled();
  });

  it('says the technical-difficulties line with the support e-mail when the call fails', async () => {
    stubReply({ code: 'internal', message: 'boom' } satisfies ErrorBody, 500);
    const { user, input } = await openChat();
    await user.type(input, 'Hello{Enter}');
    const expected = `I'm experiencing technical difficulties. Please contact our support team at ${COMPANY.supportEmail} for immediate assistance.`;
    expect(FAILURE_MESSAGE).toBe(expected);
    expect(await screen.findByText(expected)).toBeInTheDocument();
    expect(screen.queryByTestId('chat-typing')).not.toBeInTheDocument();
  });

  it('says the failure line on a network error too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { user, input } = await openChat();
    await user.type(input, 'Hello{Enter}');
    expect(await screen.findByText(FAILURE_MESSAGE)).toBeInTheDocument();
  });

  it('falls back to a friendly help line on an empty reply', async () => {
    stubReply({ response: '   ' });
    const { user, input } = await openChat();
    await user.type(input, 'Hello{Enter}');
    expect(await screen.findByText(EMPTY_REPLY_MESSAGE)).toBeInTheDocument();
  });

  it('renders the reply as plain text, keeping line breaks and bullet lines, never as HTML', async () => {
    stubReply({ response: 'Plans:\n- Free: $0\n- Professional: $49/month\n<img src=x onerror="alert(1)">' });
    const { user, input } = await openChat();
    await user.type(input, 'Plans?{Enter}');
    const reply = await screen.findByText('Free: $0');
    const bot = reply.closest('[data-testid="chat-message"]') as HTMLElement;
    expect(
      within(bot)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Free: $0', 'Professional: $49/month']);
    expect(bot.querySelector('img')).toBeNull();
    expect(bot).toHaveTextContent('<img src=x onerror="alert(1)">');
  });

  it('links the paths of built screens in a reply, and never a screen still being built', async () => {
    const unbuilt = Object.values(SCREENS).find((screen) => !screen.live)?.path ?? '/no-such-page';
    stubReply({
      response: `Create a free account at /register; later: ${unbuilt}. ESP/MTA for $49/month, /no-such-page.\n- Then open /domains`,
    });
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <ChatWidget />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Open chat assistant' }));
    const input = within(await screen.findByTestId('chat-panel')).getByRole('textbox', { name: 'Message' });
    await user.type(input, 'How do I start?{Enter}');
    const bot = (await screen.findByText(/Create a free account at/)).closest(
      '[data-testid="chat-message"]',
    ) as HTMLElement;
    expect(
      within(bot)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/register', '/domains']);
    expect(bot).toHaveTextContent(
      `Create a free account at /register; later: ${unbuilt}. ESP/MTA for $49/month, /no-such-page.`,
    );
  });
});
