import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UseQueryResult } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { QueryState } from './query-state';

type List = UseQueryResult<string[]>;
const pending = { isPending: true, isError: false } as List;
const failed = (refetch = vi.fn()) =>
  ({ isPending: false, isError: true, error: new Error('503: busy'), refetch }) as unknown as List;
const answered = (data: string[]) => ({ isPending: false, isError: false, data }) as List;

function show(query: List, errorMessage: string | ((error: Error) => string) = 'Could not load the list.') {
  return render(
    <QueryState
      query={query}
      loading={<p>Loading</p>}
      errorMessage={errorMessage}
      isEmpty={(items) => items.length === 0}
      empty={<p>Nothing yet</p>}
    >
      {(items) => (
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryState>,
  );
}

describe('QueryState', () => {
  it('shows the loading content while the query waits', () => {
    show(pending);
    expect(screen.getByText('Loading')).toBeInTheDocument();
  });

  it('shows the failure with a retry that asks again', async () => {
    const refetch = vi.fn();
    show(failed(refetch));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the list.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('lets the error message come from the error', () => {
    show(failed(), (error) => `Failed: ${error.message}`);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed: 503: busy');
  });

  it("shows the place's own view of a failure that is an answer, without a retry", () => {
    render(
      <QueryState
        query={failed()}
        loading={<p>Loading</p>}
        failed={(error) => <p>This link has expired ({error.message})</p>}
      >
        {() => <p>Data</p>}
      </QueryState>,
    );
    expect(screen.getByText('This link has expired (503: busy)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('shows the empty content, else the data', () => {
    const { unmount } = show(answered([]));
    expect(screen.getByText('Nothing yet')).toBeInTheDocument();
    unmount();
    show(answered(['a', 'b']));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['a', 'b']);
  });
});
