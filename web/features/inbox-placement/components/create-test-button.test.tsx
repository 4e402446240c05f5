import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Domain } from '@contracts/domains';
import { createAppQueryClient } from '../../../app/query-client';
import { USER_QUERY_KEY } from '../../../lib/session';
import { bodyOf, jsonResponse, makeDomain, makeInboxTest, makeUser, stubFetch } from '../../../test/test-utils';
import { CreateTestButton, NO_HEALTHY_DOMAIN_HINT, ONE_CLICK_TEST_LABEL } from './create-test-button';

function renderButton(domains: Domain[]) {
  const fetch = stubFetch({
    'GET /api/domains': () => jsonResponse(domains),
    'POST /api/inbox-tests': () => jsonResponse(makeInboxTest()),
  });
  const queryClient = createAppQueryClient();
  queryClient.setQueryData(USER_QUERY_KEY, makeUser());
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <CreateTestButton />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

describe('CreateTestButton', () => {
  it('without a domain: disabled, says why in the spec words and links to Domains to add one', async () => {
    renderButton([]);
    const hint = await screen.findByText(NO_HEALTHY_DOMAIN_HINT);
    expect(screen.getByTestId('create-test')).toBeDisabled();
    expect(screen.getByTestId('create-test')).toHaveAccessibleDescription(
      /Add and verify at least one domain to start testing\s*Add your domain in Domains/,
    );
    expect(screen.getByRole('link', { name: 'Add your domain in Domains' })).toHaveAttribute('href', '/domains');
    expect(hint.closest('#create-test-hint')).not.toBeNull();
  });

  it('with domains none of which passes: says so and links to Domains to see what to fix', async () => {
    renderButton([
      makeDomain({ status: 'warning' }),
      makeDomain({ id: 2, domain: 'b.example.com', status: 'pending', isVerified: false }),
    ]);
    expect(await screen.findByText(/None of your domains passes SPF, DKIM and DMARC yet\./)).toBeInTheDocument();
    expect(screen.getByText(NO_HEALTHY_DOMAIN_HINT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See what to fix in Domains' })).toHaveAttribute('href', '/domains');
    expect(screen.getByTestId('create-test')).toBeDisabled();
  });

  it('with one domain that does not pass: speaks of it', async () => {
    renderButton([makeDomain({ status: 'error' })]);
    expect(await screen.findByText(/Your domain does not pass SPF, DKIM and DMARC yet\./)).toBeInTheDocument();
  });

  it('with a healthy domain: enabled, no hint', async () => {
    renderButton([makeDomain({ status: 'healthy' })]);
    await screen.findByRole('button', { name: 'Create Test' });
    await expect.poll(() => (screen.getByTestId('create-test') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText(NO_HEALTHY_DOMAIN_HINT)).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('tests the one-click unsubscribe link unless the user unticks it, and sends the choice with the new test', async () => {
    const user = userEvent.setup();
    const fetch = renderButton([makeDomain({ status: 'healthy' })]);
    const box = screen.getByRole('checkbox', { name: ONE_CLICK_TEST_LABEL });
    expect(box).toBeChecked();
    await expect.poll(() => (screen.getByTestId('create-test') as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByTestId('create-test'));
    await expect
      .poll(() => bodyOf(fetch, 'POST /api/inbox-tests'))
      .toEqual({
        testType: 'automatic',
        oneClickUnsubscribeTest: true,
      });

    fetch.mockClear();
    await user.click(box);
    expect(box).not.toBeChecked();
    await expect.poll(() => (screen.getByTestId('create-test') as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByTestId('create-test'));
    await expect
      .poll(() => bodyOf(fetch, 'POST /api/inbox-tests'))
      .toEqual({
        testType: 'automatic',
        oneClickUnsubscribeTest: false,
      });
  });
});
