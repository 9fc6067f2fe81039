/**
 * The statement counts of `bench/profile.ts --statements`: how the server is
 * started to count them (bench/lib/countStatements.mjs) and how they are
 * printed, per message of the measured load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface StatementCounting {
  nodeArgs: string[];
  env: Record<string, string>;
  /** Starts the count afresh in the server (when the measured load begins). */
  start(pid: number): void;
  /** The counts per message, most frequent first, as lines to print. */
  report(messages: number): string;
}

export function countStatements(dir: string): StatementCounting {
  const out = path.join(dir, 'statements.json');
  return {
    nodeArgs: ['--import', pathToFileURL(path.join(import.meta.dirname, 'countStatements.mjs')).href],
    env: { BENCH_STATEMENTS_OUT: out },
    start: (pid) => process.kill(pid, 'SIGUSR2'),
    report(messages) {
      const counts = Object.entries(JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, number>).sort((a, b) => b[1] - a[1]);
      const total = counts.reduce((sum, [, n]) => sum + n, 0);
      const per = (n: number) => (n / Math.max(1, messages)).toFixed(2).padStart(7);
      return [`statements per message: ${per(total).trim()} (${total} for ${messages} messages)`, ...counts.map(([k, n]) => `  ${per(n)}  ${k}`)].join('\n');
    },
  };
}
