import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

function show(props: { pending?: boolean; children?: ReactNode } = {}) {
  const onOpenChange = vi.fn();
  const onConfirm = vi.fn();
  render(
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Revoke API key?"
      description="Requests signed with it are refused from now on."
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      pending={props.pending ?? false}
      onConfirm={onConfirm}
      testId="confirm-revoke"
    >
      {props.children}
    </ConfirmDialog>,
  );
  return { onOpenChange, onConfirm };
}

describe('ConfirmDialog', () => {
  it('asks the question as an alert dialog with its title, description, body and both answers', async () => {
    const { onOpenChange, onConfirm } = show({ children: <p>Keep the figures</p> });
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke API key?' });
    expect(dialog).toHaveAttribute('data-testid', 'confirm-revoke');
    expect(dialog).toHaveAccessibleDescription('Requests signed with it are refused from now on.');
    expect(screen.getByText('Keep the figures')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it('cannot be dismissed while the call runs, and says the call is under way', async () => {
    const { onOpenChange } = show({ pending: true });
    expect(screen.getByRole('button', { name: 'Revoking...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('says Delete unless told otherwise: most confirmations are deletions', () => {
    render(
      <ConfirmDialog
        open
        onOpenChange={() => {}}
        title="Delete Domain"
        description="This cannot be undone."
        pending={false}
        onConfirm={() => {}}
        testId="delete-domain-dialog"
      />,
    );
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });
});
