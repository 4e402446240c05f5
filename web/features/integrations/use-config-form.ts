import { useState } from 'react';
import type { Integration as Plugin } from '@content/integrations';
import { serverMessageOr } from '../../lib/api-client';
import { useTestConnectionMutation } from './api';
import type { ConnectionOutcome } from './components/connection-result';
import { fieldProblem, filledConfig } from './plugins';

/** The install answer's prefix when the provider refused the credentials (integrations.service.ts refusedChange). */
const REFUSED_PREFIX = 'The connection test failed: ';

/** A provider's refusal inside an install or save error, or undefined when the error is something else. */
export function refusalIn(message: string): string | undefined {
  return message.startsWith(REFUSED_PREFIX) ? message.slice(REFUSED_PREFIX.length) : undefined;
}

/**
 * The state of a plugin's config form: values, the errors shown after a try, and the last
 * connection test's outcome. With `keepSecrets` (editing an installed plugin) an empty secret means
 * "keep the stored one", so it is not required, and the form can only be tested once it is retyped.
 */
export function useConfigForm(plugin: Plugin, initial: Record<string, string> = {}, { keepSecrets = false } = {}) {
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [outcome, setOutcome] = useState<ConnectionOutcome | null>(null);
  const test = useTestConnectionMutation();

  function setValue(key: string, value: string) {
    setValues((old) => ({ ...old, [key]: value }));
    // A changed value makes the last test's answer stale, and its error moot until the next try.
    setOutcome(null);
    setErrors((old) => ({ ...old, [key]: undefined }));
  }

  /** Checks every field as the server will; true when all pass. */
  function validate(): boolean {
    const found: Record<string, string | undefined> = {};
    for (const field of plugin.fields)
      found[field.key] = fieldProblem(plugin, field, values[field.key] ?? '', { keepSecret: keepSecrets });
    setErrors(found);
    return Object.values(found).every((problem) => problem === undefined);
  }

  /** The required fields still empty: until they are filled, Test Connection and Install have nothing to send (part 2, section 2). */
  const missing = plugin.fields
    .filter((f) => f.required && !(keepSecrets && f.secret) && (values[f.key] ?? '').trim() === '')
    .map((f) => f.label);

  /** Whether every secret is typed in, so the provider can be asked (an edit that keeps the stored key cannot be tested here). */
  const secretsTyped = plugin.fields.filter((f) => f.secret).every((f) => (values[f.key] ?? '').trim() !== '');

  function runTest() {
    if (!validate()) return;
    setOutcome(null);
    test.mutate(
      { pluginId: plugin.id, config: filledConfig(plugin, values) },
      {
        onSuccess: (result) =>
          setOutcome(
            result.success
              ? { success: true }
              : { success: false, error: result.error ?? `${plugin.name} refused the credentials without a reason` },
          ),
        onError: (error) =>
          setOutcome({ success: false, error: serverMessageOr(error, 'The test could not be run. Try again.') }),
      },
    );
  }

  return {
    values,
    setValue,
    errors,
    validate,
    outcome,
    setOutcome,
    runTest,
    testing: test.isPending,
    secretsTyped,
    missing,
    config: () => filledConfig(plugin, values),
  };
}
