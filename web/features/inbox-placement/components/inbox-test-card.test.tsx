import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InboxTest } from '@contracts/inbox-tests';
import { makeInboxTest } from '../../../test/test-utils';
import { InboxTestCard } from './inbox-test-card';

function renderCard(test: InboxTest) {
  render(<InboxTestCard test={test} onDelete={() => {}} />);
  return within(screen.getByTestId(`inbox-test-${test.id}`));
}

const completed = (overrides: Partial<InboxTest> = {}) =>
  makeInboxTest({
    id: 4,
    status: 'completed',
    subject: '[TEST-4] Spring sale',
    receivedAt: '2025-03-01T10:02:00.000Z',
    completedAt: '2025-03-01T10:05:00.000Z',
    ...overrides,
  });

describe('InboxTestCard', () => {
  it('awaiting its email: one consistent subject instruction, the default subject said to be what the list calls it', () => {
    const card = renderCard(makeInboxTest({ id: 1 }));
    const instructions = card.getByTestId('inbox-test-instructions-1');
    expect(instructions).toHaveTextContent(
      'Send your email to the test address. Put the test id in the subject as "[TEST-1] Your Subject". Until your email arrives, the test is listed under its default subject, "Inbox Test 1".',
    );
    expect(instructions).not.toHaveTextContent(/The default subject is/);
    expect(card.getByRole('heading', { name: 'Inbox Test 1' })).toBeInTheDocument();
  });

  it('once the email has arrived: no word of the default subject', () => {
    const card = renderCard(completed());
    expect(card.getByRole('heading', { name: '[TEST-4] Spring sale' })).toBeInTheDocument();
    expect(card.getByTestId('inbox-test-instructions-4')).not.toHaveTextContent(/default subject/);
  });

  it('counts seeds in the singular and the plural', () => {
    const one = renderCard(completed({ totalSeeds: 1, inboxCount: 1 }));
    expect(one.getByText(/1 inbox, 0 spam, 0 missing of 1 seed$/)).toBeInTheDocument();
  });

  it('counts several seeds in the plural', () => {
    const several = renderCard(completed({ totalSeeds: 3, inboxCount: 2, spamCount: 1 }));
    expect(several.getByText(/2 inbox, 1 spam, 0 missing of 3 seeds$/)).toBeInTheDocument();
  });

  it('names the sending provider when one was detected, and says nothing of it otherwise', () => {
    const withProvider = renderCard(completed({ id: 5, provider: 'SendGrid' }));
    expect(withProvider.getByText(/sent through SendGrid/)).toBeInTheDocument();
    const without = renderCard(completed({ id: 6, provider: null }));
    expect(without.queryByText(/provider|not detected/i)).not.toBeInTheDocument();
  });
});
