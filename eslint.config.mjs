import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'node_modules/**',
      'coverage/**',
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'describe', property: 'only' },
        { object: 'it', property: 'only' },
        { object: 'test', property: 'only' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The operator console runs in the browser, not in Node.
    files: ['apps/gateway/src/console/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Test code under src/ (specs, testing/ helpers) shares the test kit in libs/testing, never test/.
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: ['libs/policies/src/**', 'apps/runpod-sim/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**'], message: 'src/ never imports from test/; use @podwarden/testing.' },
          ],
        },
      ],
    },
  },
  {
    // Production code never depends on the test kit.
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: [
      'libs/policies/src/**',
      'apps/runpod-sim/**',
      'libs/testing/**',
      '**/*.spec.ts',
      '**/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**'], message: 'src/ never imports from test/.' },
            {
              group: ['@podwarden/testing', '@podwarden/testing/*'],
              message: 'Production code never imports the test kit.',
            },
          ],
        },
      ],
    },
  },
  {
    // Policies are pure: no framework, no I/O, no clock.
    files: ['libs/policies/src/**/*.ts'],
    ignores: ['libs/policies/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@nestjs/*',
            'ioredis',
            'bullmq',
            'undici',
            'node:*',
            'fs',
            'http',
            'https',
            'net',
            '@podwarden/*',
          ],
        },
      ],
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'fetch', 'process'],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Policies take time as a parameter.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Policies take time as a parameter.',
        },
        {
          selector: "MemberExpression[object.name='Math'][property.name='random']",
          message: 'Policies are deterministic.',
        },
      ],
    },
  },
  {
    // The simulator is RunPod's side, written independently of our adapter and decisions.
    files: ['apps/runpod-sim/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@podwarden/*', '**/libs/*'] }] },
  },
  {
    // The CLI is a client of the gateway's REST contract; of the server it shares only the pure
    // policies, so `what-if` replays through the very decisions the idle monitor runs.
    files: ['apps/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@podwarden/*', '!@podwarden/policies', '**/libs/*'] }] },
      ],
    },
  },
);
