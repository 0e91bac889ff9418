import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            // Components rendered in jsdom (`// @vitest-environment jsdom` at the top of the file).
            'apps/web/src/**/*.test.tsx',
            'apps/web/vite-plugins/**/*.test.ts',
            'apps/api/src/**/*.test.ts',
            'tools/**/*.test.ts',
          ],
          environment: 'node',
          // A component test clicks and types through a whole form; on a loaded 2-core machine that
          // takes several times what it takes on an idle one.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/test/**/*.test.ts'],
          // *.postgres.test.ts need a PostgreSQL server: they join the suite when TEST_DATABASE_URL names one.
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['apps/api/test/**/*.postgres.test.ts'])],
          environment: 'node',
          // Each file builds the app on its own fresh database; a few files at a time fit 2 cores.
          maxWorkers: 2,
          globalSetup: ['apps/api/test/pglite-copy.ts'],
          // A project with its own worker count runs as its own group, after the unit tests.
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Seeded malformed requests against every route: `npm run test:fuzz`, also run by CI.
          name: 'fuzz',
          include: ['apps/api/fuzz/**/*.fuzz.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/test/pglite-copy.ts'],
          sequence: { groupOrder: 3 },
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Two built portal instances on a throw-away PostgreSQL cluster behind a proxy: `npm run
          // test:scale` (docs/deployment.md), run by CI after the PostgreSQL suite.
          name: 'scale',
          include: ['apps/api/scale/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'region',
          include: ['apps/region/test/**/*.test.ts'],
          environment: 'node',
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The sandbox payment gateway on its own (where the portal hosts it: the api project).
          name: 'card-sandbox',
          include: ['apps/card-sandbox/test/**/*.test.ts'],
          environment: 'node',
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
