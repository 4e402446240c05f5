import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { z } from 'zod';
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

export type ConfigValues = Record<string, string>;

/**
 * A plugin's config form checked as the server will check it, each field in the catalogue's words. With
 * `keepSecrets` (editing an installed plugin) an empty secret means "keep the stored one", so it is not required.
 */
export function configSchema(plugin: Plugin, { keepSecrets = false } = {}) {
  return z.record(z.string(), z.string()).superRefine((values, ctx) => {
    for (const field of plugin.fields) {
      const problem = fieldProblem(plugin, field, values[field.key] ?? '', { keepSecret: keepSecrets });
      if (problem) ctx.addIssue({ code: 'custom', path: [field.key], message: problem });
    }
  });
}

/** Every field of the plugin, as typed so far (or as given). */
export function configDefaults(plugin: Plugin, given: ConfigValues = {}): ConfigValues {
  return Object.fromEntries(plugin.fields.map((field) => [field.key, given[field.key] ?? '']));
}

/** The config form's state, as its fields and buttons read it from the <Form> around them. */
export const useConfigFormContext = () => useFormContext<ConfigValues>();

/** The required fields still empty: until they are filled, Test Connection and Install have nothing to send (part 2, section 2). */
export function missingFields(plugin: Plugin, values: ConfigValues, { keepSecrets = false } = {}): string[] {
  return plugin.fields
    .filter((f) => f.required && !(keepSecrets && f.secret) && (values[f.key] ?? '').trim() === '')
    .map((f) => f.label);
}

/** Whether every secret is typed in, so the provider can be asked (an edit that keeps the stored key cannot be tested here). */
export function secretsTyped(plugin: Plugin, values: ConfigValues): boolean {
  return plugin.fields.filter((f) => f.secret).every((f) => (values[f.key] ?? '').trim() !== '');
}

/** Test Connection: the last test's outcome (stale once a value changes), and the test itself once the fields pass. */
export function useConnectionTest(plugin: Plugin) {
  const [outcome, setOutcome] = useState<ConnectionOutcome | null>(null);
  const test = useTestConnectionMutation();

  function run(values: ConfigValues) {
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

  return { outcome, setOutcome, run, testing: test.isPending };
}
