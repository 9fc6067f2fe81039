// ESLint (flat config): typescript-eslint's type-aware recommended rules over
// every TypeScript file (server, protocol, tests, benchmarks, e2e, web apps),
// React hooks rules for the agent app. Formatting is Prettier's, not ESLint's.
// `npm run lint` runs it; `npm test` fails when it is red.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'test/faults/*.mjs', 'web/agent/vite.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An async function without await is how an interface's async member is implemented here.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An async event handler (onClick={async () => …}) is how the web apps run an action.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // A transaction PostgreSQL aborts for a deadlock or a serialization failure must run again, not
    // answer 500: server code opens transactions through inTransaction (db/database.ts) or commit
    // (events/outbox.ts), which do (db/transient.ts). Allowed: db/ itself; the relay, which retries
    // whole batches itself (events/relay.ts); tests, which open plain ones on purpose.
    files: ['server/**/*.ts'],
    ignores: ['server/db/**', 'server/events/relay.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(transaction|startTransaction)$/]",
          message:
            'Open transactions with inTransaction (db/database.ts), or commit (events/outbox.ts) when they record events: both run a transaction PostgreSQL aborts for a deadlock again (db/transient.ts).',
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/agent/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests and benchmarks read answers with res.json() (typed any): reading them is the point.
    files: ['**/*.test.ts', 'test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);
