/**
 * The long mode of the property tests: runs test/fuzz/*.fuzz.test.ts with
 * FUZZ_RUNS=100000 (every property: 100,000 cases) on SQLite and PostgreSQL,
 * one store after the other, and prints one line per file and store.
 *   npx tsx bench/fuzz.ts [--runs=100000] [--db=sqlite,postgres] [--only=<file name part>]
 * Not part of npm test (which runs the same files with a few hundred cases
 * each). A failure prints fast-check's counterexample and its seed; rerun one
 * file with `FUZZ_RUNS=… npx vitest run --project sqlite test/fuzz/<file>`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const runs = args.get('runs') ?? '100000';
const dbs = (args.get('db') ?? 'sqlite,postgres').split(',').filter(Boolean);
const only = args.get('only');

if (!/^\d+$/.test(runs)) throw new Error(`--runs must be a whole number (got "${runs}")`);
for (const db of dbs) if (db !== 'sqlite' && db !== 'postgres') throw new Error(`--db takes sqlite and/or postgres (got "${db}")`);

const files = fs
  .readdirSync(path.join(ROOT, 'test/fuzz'))
  .filter((f) => f.endsWith('.fuzz.test.ts') && (!only || f.includes(only)))
  .map((f) => `test/fuzz/${f}`);
if (files.length === 0) throw new Error(`no fuzz file matches "${only}"`);

interface Report {
  testResults?: Array<{ name: string; status: string; assertionResults?: Array<{ title: string; status: string; duration?: number }> }>;
}

let failed = false;
const lines: string[] = [];
for (const db of dbs) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-fuzz-')), 'report.json');
  process.stdout.write(`\n${db}: ${files.length} files, FUZZ_RUNS=${runs}\n`);
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      db,
      '--testTimeout=86400000',
      '--hookTimeout=600000',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...files,
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs } },
  );
  if (result.status !== 0) failed = true;
  try {
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as Report;
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        const seconds = ((test.duration ?? 0) / 1000).toFixed(1);
        lines.push(`${db.padEnd(8)} ${path.relative(ROOT, file.name).padEnd(40)} ${test.status.padEnd(7)} ${seconds.padStart(8)} s  ${test.title}`);
      }
    }
  } catch (err) {
    lines.push(`${db}: no report (${(err as Error).message})`);
    failed = true;
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

process.stdout.write(`\nFuzzing, FUZZ_RUNS=${runs}\n${lines.join('\n')}\n`);
process.exit(failed ? 1 : 0);
