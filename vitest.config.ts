/**
 * The suite runs twice: once on SQLite and once on PostgreSQL (the same test
 * files, TEST_DB chooses the store). scripts/test.mjs decides which halves run.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // On CI (a loaded 2-core machine), a failed test runs once more; one that then passes is
    // listed as flaky at the end of `npm test` (scripts/flakyReporter.mjs), to be fixed.
    retry: process.env.CI === 'true' || process.env.CI === '1' ? 1 : 0,
    hookTimeout: 60_000,
    pool: 'forks',
    // Low scrypt cost for the hashes tests make (see the file); never production's.
    setupFiles: ['test/setup/passwordCost.ts'],
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts', 'web/**/*.test.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', env: { TEST_DB: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', env: { TEST_DB: 'postgres' } } },
    ],
  },
});
