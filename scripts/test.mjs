#!/usr/bin/env node
// npm test: builds once (`npm run build`: server and web apps; the process tests
// run the real `npm start` on dist/), runs the static checks (types, lint,
// formatting), then the whole suite on SQLite and on
// PostgreSQL, and closes with one plain line "N passed, N failed, N skipped".
// Exits with vitest's code.
// The PostgreSQL half needs TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// Outside CI it is skipped, loudly, when no server answers; with CI=true it is required.
import { spawn, spawnSync } from 'node:child_process';
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

// The static checks are independent of each other: they run side by side, each one's output
// printed whole when it ends, and any red one stops the run before the suite.
console.log('Static checks (typecheck, lint, format:check), side by side…');
const checks = await Promise.all(
  [
    ['typecheck', 'Type errors (npm run typecheck: server, tests, e2e, web apps).'],
    ['lint', 'Lint errors (npm run lint: ESLint with typescript-eslint). `npx eslint . --fix` mends some.'],
    ['format:check', 'Files not formatted (npm run format:check). Run `npm run format`.'],
  ].map(
    ([script, failure]) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('close', (code) => {
          const lines = output.split('\n').filter((l) => !/^npm warn Unknown (user|env) config/.test(l));
          console.log(`-- ${script}: ${code === 0 ? 'ok' : 'FAILED'}`);
          if (code !== 0) console.log(lines.join('\n'));
          resolve({ script, code, failure });
        });
      }),
  ),
);
const red = checks.filter((c) => c.code !== 0);
if (red.length > 0) {
  for (const c of red) console.error(c.failure);
  console.error('No test was run.');
  process.exit(1);
}

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vitest-'));
const reportFile = path.join(reportDir, 'report.json');
const args = [
  'vitest',
  'run',
  // Each store's files run side by side, its few timing-by-the-spec files alone after them (vitest.config.ts).
  ...projects.flatMap((p) => ['--project', p, '--project', `${p}-serial`]),
  // The deployment recipes (deploy/: TLS proxies, container image, systemd unit), once.
  '--project',
  'deploy',
  '--reporter=default',
  '--reporter=json',
  '--reporter=./scripts/flakyReporter.mjs',
  `--outputFile.json=${reportFile}`,
  ...process.argv.slice(2),
];
const flakyFile = path.join(reportDir, 'flaky.jsonl');
const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url, PARLEY_FLAKY_FILE: flakyFile } });
const flaky = fs.existsSync(flakyFile)
  ? fs
      .readFileSync(flakyFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
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
  // The slowest files, to keep the run short as the suite grows (the same file runs once per store).
  const slowest = (report.testResults ?? [])
    .map((f) => ({ name: path.relative(process.cwd(), f.name), ms: (f.endTime ?? 0) - (f.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 15);
  if (slowest.length > 0) {
    console.log('\nSlowest test files (wall time, each store counted apart):');
    for (const f of slowest) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`);
  }
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
  if (flaky.length > 0) {
    console.log(`\n*** ${flaky.length} test(s) passed only when run again (flaky; fix them):`);
    for (const t of flaky) console.log(`  [${t.project}] ${path.relative(process.cwd(), t.file)} > ${t.name}`);
  }
  console.log(`${summary.passed} passed, ${failed} failed, ${summary.skipped} skipped${flaky.length > 0 ? `, ${flaky.length} flaky` : ''}`);
} else {
  console.log(`0 passed, 1 failed`);
}
process.exit(status);
