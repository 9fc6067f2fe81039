#!/usr/bin/env node
// npm test: builds once (`npm run build`: server and web apps; the process tests
// run the real `npm start` on dist/), then the whole suite on SQLite and on
// PostgreSQL, and closes with one plain line "N passed, N failed, N skipped".
// Exits with vitest's code.
// The PostgreSQL half needs TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// Outside CI it is skipped, loudly, when no server answers; with CI=true it is required.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ci = process.env.CI === 'true' || process.env.CI === '1';

async function postgresReachable() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (err) {
    console.error(`PostgreSQL at ${url} is not reachable: ${err.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const projects = ['sqlite'];
if (await postgresReachable()) projects.push('postgres');
else if (ci) {
  console.error('CI=true: the PostgreSQL half of the suite is required. Start PostgreSQL or set TEST_DATABASE_URL.');
  process.exit(1);
} else {
  console.error('\n*** WARNING: PostgreSQL is not reachable; running the SQLite half only. ***\n');
}

console.log('Building (npm run build)…');
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('The build failed; no test was run.');
  process.exit(build.status ?? 1);
}

console.log('Type-checking (npm run typecheck: server, tests, e2e, web apps)…');
const typecheck = spawnSync('npm', ['run', 'typecheck'], { stdio: 'inherit' });
if (typecheck.status !== 0) {
  console.error('Type errors; no test was run.');
  process.exit(typecheck.status ?? 1);
}

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vitest-'));
const reportFile = path.join(reportDir, 'report.json');
const args = [
  'vitest',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportFile}`,
  ...process.argv.slice(2),
];
const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
const status = result.status ?? 1;

let summary = null;
try {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  summary = {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    // A file that fails to load, or whose beforeAll fails, has no failed test (its tests are
    // skipped or absent): count each such file as one failure.
    brokenFiles: (report.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')).length,
  };
} catch (err) {
  console.error(`No vitest report at ${reportFile}: ${err.message}`);
} finally {
  fs.rmSync(reportDir, { recursive: true, force: true });
}

console.log('');
if (summary) {
  if (summary.brokenFiles > 0) console.log(`${summary.brokenFiles} test file(s) failed outside their tests (load error or failing hook).`);
  let failed = summary.failed + summary.brokenFiles;
  if (status !== 0 && failed === 0) {
    console.log(`vitest exited with code ${status} although no test failed (an unhandled error?): counted as one failure.`);
    failed = 1;
  }
  console.log(`${summary.passed} passed, ${failed} failed, ${summary.skipped} skipped`);
} else {
  console.log(`0 passed, 1 failed`);
}
process.exit(status);
