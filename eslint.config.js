import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importBoundaries from './eslint/import-boundaries.js';
import oneFormStyle from './eslint/one-form-style.js';
import tableOwnership from './eslint/table-ownership.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'e2e/artifacts/**',
      '.ci/out/**',
      'server/platform/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { layout: { rules: { 'import-boundaries': importBoundaries, 'table-ownership': tableOwnership } } },
    rules: {
      'layout/import-boundaries': 'error',
      'layout/table-ownership': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Tests talk to loose JSON and to libraries' untyped corners; product code may not.
    files: ['**/*.test.{ts,tsx}', '**/*.test-support.ts', '**/*.e2e.ts', '**/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, form: { rules: { 'one-form-style': oneFormStyle } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'form/one-form-style': 'error',
    },
  },
);
