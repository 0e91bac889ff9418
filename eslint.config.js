import reactHooks from 'eslint-plugin-react-hooks';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { webBoundaries } from './tools/eslint/web-boundaries.mjs';

/** Import boundaries: contracts import nothing of the repo; apps never import each other. */
const boundaries = {
  contracts: ['@portal/api', '@portal/web', '**/apps/**'],
  api: ['@portal/web', '**/apps/web/**'],
  web: ['@portal/api', '**/apps/api/**', 'better-auth', 'drizzle-orm', 'fastify', 'pg', '@electric-sql/pglite'],
  // A gateway of its own: it knows nothing of the portal that hosts it.
  cardSandbox: [
    '@portal/api',
    '@portal/web',
    '@portal/region',
    '**/apps/api/**',
    '**/apps/web/**',
    '**/apps/region/**',
  ],
};

/** The one module of the server that hosts each embedded system. */
const EMBEDDED = {
  region: 'apps/api/src/regions/embedded-regions.ts',
  cardSandbox: 'apps/api/src/payments/embedded-card-sandbox.ts',
};

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message: 'Crosses a workspace boundary.' })) }],
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', 'data/**', '**/test-results/**', '**/playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['packages/contracts/**/*.ts'], rules: restrict(boundaries.contracts) },
  { files: ['apps/api/**/*.ts'], rules: restrict(boundaries.api) },
  // The regional-platform emulator and the card sandbox are dependencies of the API only so that
  // the portal can host them: one module loads each, and nothing else in the server depends on them.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [EMBEDDED.region, EMBEDDED.cardSandbox],
    rules: restrict([...boundaries.api, '@portal/region', '@portal/card-sandbox']),
  },
  { files: [EMBEDDED.region], rules: restrict([...boundaries.api, '@portal/card-sandbox']) },
  { files: [EMBEDDED.cardSandbox], rules: restrict([...boundaries.api, '@portal/region']) },
  { files: ['apps/card-sandbox/**/*.ts'], rules: restrict(boundaries.cardSandbox) },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: {
      'react-hooks': reactHooks,
      'web-boundaries': webBoundaries(path.join(import.meta.dirname, 'apps', 'web', 'src')),
    },
    rules: {
      ...restrict(boundaries.web),
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'web-boundaries/layers': 'error',
    },
  },
);
