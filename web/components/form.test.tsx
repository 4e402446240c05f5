import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../lib/api-client';
import { Form, FormError, SubmitButton, type Refuse } from './form';
import { FormField } from './ui/form-field';
import { Input } from './ui/input';

const Fields = z.object({ name: z.string().trim().min(1, 'name is required') });

function show({
  pending = false,
  onSubmit,
}: {
  pending?: boolean;
  onSubmit: (values: z.output<typeof Fields>, refuse: Refuse) => void;
}) {
  return render(
    <Form
      schema={Fields}
      defaultValues={{ name: '' }}
      pending={pending}
      fieldOf={(message) => (message.startsWith('name') ? 'name' : undefined)}
      aria-label="Name form"
      onSubmit={onSubmit}
    >
      {(form) => (
        <>
          <FormField id="name" label="Name" error={form.formState.errors.name?.message}>
            <Input {...form.register('name')} />
          </FormField>
          <FormError />
          <SubmitButton pending="Saving...">Save</SubmitButton>
        </>
      )}
    </Form>,
  );
}

// A 400 as the API answers it (server/platform/errors.ts: { error, message }).
const refusal = (message: string) =>
  new ApiError(400, 'Bad Request', JSON.stringify({ error: 'validation_error', message }));

describe('Form', () => {
  it("says the schema's message at its field and submits nothing", async () => {
    const onSubmit = vi.fn();
    show({ onSubmit });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('name is required')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits what the schema made of the typed values', async () => {
    const onSubmit = vi.fn();
    show({ onSubmit });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '  Ada  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith(
        { name: 'Ada' },
        expect.any(Function),
        expect.objectContaining({ reset: expect.any(Function) }),
      ),
    );
  });

  it('files a refusal that names a field under that field, and returns its words', async () => {
    let told = '';
    show({ onSubmit: (_values, refuse) => (told = refuse(refusal('name is already taken'), 'Could not save')) });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('name is already taken')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(told).toBe('name is already taken');
  });

  it("announces a refusal that names no field under the form, or the caller's words when the server gave none", async () => {
    const failures = [refusal('You can keep at most 100 alert rules'), new ApiError(502, 'Bad Gateway', '')];
    show({ onSubmit: (_values, refuse) => refuse(failures.shift(), 'Could not save') });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can keep at most 100 alert rules');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Could not save'));
  });

  it('disables the submit button and says the request is under way while pending', () => {
    show({ pending: true, onSubmit: vi.fn() });
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(screen.getByRole('form', { name: 'Name form' })).toHaveAttribute('aria-busy', 'true');
  });
});
