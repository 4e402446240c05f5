import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The form rule's complaints about `code` if it stood in `file`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'form/one-form-style').map((m) => m.message);
}

const handRolled = `import { useState } from 'react';
export function Planted() {
  const [name, setName] = useState('');
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />
    </form>
  );
}
`;

describe('npm run lint: one form style', () => {
  it('fails on a planted hand-rolled form in a web feature', async () => {
    expect(await complaints('web/features/domains/components/planted.tsx', handRolled)).toEqual([
      'A hand-rolled <form>: write it with <Form schema> (web/components/form.tsx), so the contract checks it; a form with nothing to check says why in an eslint-disable comment.',
    ]);
    expect(await complaints('web/app/planted.tsx', handRolled)).toHaveLength(1);
  });

  it('passes a form written with <Form schema>', async () => {
    const withForm = `import { z } from 'zod';
import { Form, SubmitButton } from '../../../components/form';
const Fields = z.object({ name: z.string().min(1) });
export function Planted() {
  return (
    <Form schema={Fields} defaultValues={{ name: '' }} onSubmit={() => undefined}>
      {(form) => <><input aria-label="Name" {...form.register('name')} /><SubmitButton pending="Saving...">Save</SubmitButton></>}
    </Form>
  );
}
`;
    expect(await complaints('web/features/domains/components/planted.tsx', withForm)).toEqual([]);
  });

  it('fails on a planted feature that calls useForm directly and writes its own <form>', async () => {
    const withLibrary = `import { useForm } from 'react-hook-form';
export function Planted() {
  const form = useForm<{ name: string }>();
  return (
    <form onSubmit={(event) => void form.handleSubmit(() => undefined)(event)}>
      <input aria-label="Name" {...form.register('name')} />
    </form>
  );
}
`;
    expect(await complaints('web/features/domains/components/planted.tsx', withLibrary)).toEqual([
      "react-hook-form's useForm called directly: write the form with <Form schema> (web/components/form.tsx), the one place that calls it.",
      'A hand-rolled <form>: write it with <Form schema> (web/components/form.tsx), so the contract checks it; a form with nothing to check says why in an eslint-disable comment.',
    ]);
  });

  it('lets the form wrapper itself write the <form> and call useForm', async () => {
    const wrapper = `import { useForm } from 'react-hook-form';
export function Form() {
  const form = useForm<{ name: string }>();
  return <form onSubmit={(event) => void form.handleSubmit(() => undefined)(event)} />;
}
`;
    expect(await complaints('web/components/form.tsx', wrapper)).toEqual([]);
  });

  it('lets a form with nothing to check say why, and leaves the server and tests alone', async () => {
    const excused = handRolled.replace(
      '    <form',
      '    // eslint-disable-next-line form/one-form-style -- one free-text box, nothing to check before sending\n    <form',
    );
    expect(await complaints('web/features/chat/planted.tsx', excused)).toEqual([]);
    expect(await complaints('web/features/domains/components/planted.test.tsx', handRolled)).toEqual([]);
  });
});
