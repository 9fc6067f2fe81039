/**
 * Writes one benchmark's section into docs/BENCHMARKS.md, between
 * `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`, keeping the rest.
 */
import fs from 'node:fs';
import path from 'node:path';

const FILE = path.resolve(import.meta.dirname, '../../docs/BENCHMARKS.md');

export function writeSection(name: string, markdown: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let doc = fs.existsSync(FILE)
    ? fs.readFileSync(FILE, 'utf8')
    : '# Benchmarks\n\nRun `npm run bench` to reproduce; each section is rewritten by its benchmark.\n';
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  doc = i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(FILE, doc);
}

export { percentile } from './stats.js';

/** One line of the summary table at the top of docs/BENCHMARKS.md. */
export interface GoalRow {
  /** Stable id: a rerun replaces the row with the same key. */
  key: string;
  benchmark: string;
  goal: string;
  measured: string;
  /** null: no goal, a figure only. */
  met: boolean | null;
}

const RESULTS = path.resolve(import.meta.dirname, '../results.json');

/** Keeps the row in bench/results.json and rewrites the summary section from every row kept there. */
export function recordGoal(row: GoalRow): void {
  const rows = fs.existsSync(RESULTS) ? (JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as GoalRow[]) : [];
  const i = rows.findIndex((r) => r.key === row.key);
  if (i >= 0) rows[i] = row;
  else rows.push(row);
  fs.writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`);
  const mark = (m: boolean | null) => (m === null ? '—' : m ? '**met**' : '**not met**');
  writeSection(
    'summary',
    `## Summary

Each goal, the last figure measured and whether it is met (details in the sections below). The goals of an open issue ("#23 goal 1: …") come first, in the issue's order.

| benchmark | goal | measured | |
|---|---|---|---|
${ordered(rows)
  .map((r) => `| ${r.benchmark} | ${r.goal} | ${r.measured} | ${mark(r.met)} |`)
  .join('\n')}`,
  );
}

/** An issue's goal and reference rows ("#23 goal 1: …", "#23 reference: …") first, sorted by name; the others as kept. */
function ordered(rows: GoalRow[]): GoalRow[] {
  const lead = (r: GoalRow) => /^#\d+ (goal|reference)/.test(r.benchmark);
  const byName = (a: GoalRow, b: GoalRow) => (a.benchmark < b.benchmark ? -1 : a.benchmark > b.benchmark ? 1 : 0);
  return [...rows.filter(lead).sort(byName), ...rows.filter((r) => !lead(r))];
}
