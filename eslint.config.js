import reactHooks from 'eslint-plugin-react-hooks';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { webBoundaries } from './tools/eslint/web-boundaries.mjs';

/** Import boundaries: contracts import nothing of the repo; apps never import each other. */
const boundaries = {
  contracts: ['@portal/api', '@portal/web', '**/apps/**'],
  api: ['@portal/web', '**/apps/web/**'],
  web: ['@portal/api', '**/apps/api/**', 'better-auth', 'drizzle-orm', 'fastify', 'pg', '@electric-sql/pglite'],
};

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message: 'Crosses a workspace boundary.' })) }],
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/test-results/**', '**/playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['packages/contracts/**/*.ts'], rules: restrict(boundaries.contracts) },
  { files: ['apps/api/**/*.ts'], rules: restrict(boundaries.api) },
  // The regional-platform emulator is a dependency of the API only so that the portal can host it
  // (embedded regions): one module loads it, and nothing else in the server depends on it.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/regions/embedded-regions.ts'],
    rules: restrict([...boundaries.api, '@portal/region']),
  },
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
