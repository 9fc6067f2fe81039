// ESLint (flat config): typescript-eslint's type-aware recommended rules over
// every TypeScript file (server, protocol, tests, benchmarks, e2e, web apps),
// React hooks rules for the agent app. Formatting is Prettier's, not ESLint's.
// `npm run lint` runs it; `npm test` fails when it is red.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Who may not import whom (target: the importing files; from: what they may not import). */
const LAYER_ZONES = [
  {
    target: './server/presenters',
    from: './server/domain',
    message: 'Presenters are below the domain: read stored rows through server/model/, or let the route pass what the domain computed.',
  },
  {
    target: './server/domain',
    from: './server/routes',
    message: 'The domain does not know the HTTP routes: move what both need into the domain (or below it).',
  },
  {
    target: './server/domain',
    from: './server/realtime',
    message: 'The domain does not reach into realtime: record an event (events/catalogue.ts) the realtime layer follows, or call a port of AppContext.',
  },
  {
    target: './server/realtime',
    from: './server/routes',
    message: 'The realtime layer follows events and may use the domain, never the HTTP routes: move what both need below them.',
  },
  { target: './server/db', from: './server/domain', message: 'db/ is below the domain: move what it needs into db/ (or lib/).' },
  {
    target: './server/model',
    from: './server',
    except: ['./model', './db', './lib', './errors'],
    message: 'server/model/ reads stored rows: it imports only db/, lib/, errors/ and protocol/.',
  },
  { target: './protocol', from: './server', message: 'protocol/ is shared with the web apps: it imports nothing of the server.' },
];

/**
 * Layers that point one way (docs/ARCHITECTURE.md "Layers"): routes → domain → db, with the
 * presenters below the domain and server/model/ below both; the realtime layer follows the
 * domain's events and is not called by it. A back import or a circle of value imports fails
 * (test/lint/layers.test.ts keeps the rules biting). Type-only imports make no circle.
 */
export const layerRules = [
  {
    files: ['server/**/*.ts', 'protocol/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Sources import each other as .js (NodeNext); the files are .ts, which no-cycle must parse to follow.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
];

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
  ...layerRules,
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
