import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorResponse, renderApp } from '../../test/test-utils';
import { makeIp, stubReputation } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./reputation-test-page'), import('../../app/shell/app-shell')]);
});

describe('Reputation Test', () => {
  it('shows the login status, the IP query status, the count and each IP status', async () => {
    stubReputation([makeIp(), makeIp({ id: 2, ipAddress: '2001:db8::25', status: 'pending' })]);
    renderApp('/reputation-test');
    expect(await screen.findByTestId('login-status')).toHaveTextContent('Signed in as ada');
    expect(await screen.findByText('success')).toBeInTheDocument();
    expect(screen.getByTestId('ip-query-status')).toHaveTextContent('success');
    expect(screen.getByTestId('ip-count')).toHaveTextContent('2');
    const rows = screen.getAllByTestId('debug-ip');
    expect(within(rows[0]).getByTestId('ip-status')).toHaveTextContent('Clean');
    expect(rows[1]).toHaveTextContent('2001:db8::25');
    expect(within(rows[1]).getByTestId('ip-status')).toHaveTextContent('Checking');
  });

  it('shows the query error with the server message', async () => {
    stubReputation([], { 'GET /api/ip-addresses': () => errorResponse(500, 'internal', 'Something went wrong') });
    renderApp('/reputation-test');
    expect(await screen.findByText('error')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByTestId('ip-count')).toHaveTextContent('–');
  });
});
