/**
 * The docs stay inside the repo and true (#17 item 13): every relative link of
 * README.md and docs/*.md names a file of the repo, none points outside it
 * (no document of the project's own planning is a reader's to open), and the
 * chat channel's table of answers carries the registry's own numbers;
 * the files ARCHITECTURE.md names (its feature index) exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorRegistry } from '../../server/errors/registry.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('docs', () => {
  it.each(DOCS)('%s links only to files of the repo', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const problems: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const file = path.resolve(path.dirname(path.join(ROOT, doc)), target.split('#')[0]);
      if (!file.startsWith(ROOT + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) problems.push(`${target}: outside the repo`);
      else if (!fs.existsSync(file)) problems.push(`${target}: no such file`);
    }
    // Documents outside the repo, by name: a reader of the repo cannot open them.
    for (const outside of [/\bCONTRACT\b/, /\.\.\/shared\b/, /\/work\//, /DESIGN\.md/]) if (outside.test(text)) problems.push(`mentions ${outside.source}`);
    expect(problems).toEqual([]);
  });

  it('ARCHITECTURE.md names only files and folders that exist', () => {
    const text = fs.readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const named = [...text.matchAll(/`((?:server|web|protocol|test|e2e|deploy|bench|scripts)\/[\w./-]*)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('CHAT-CHANNEL.md answers with the numbers and statuses of the error registry', () => {
    const text = fs.readFileSync(path.join(ROOT, 'docs/CHAT-CHANNEL.md'), 'utf8');
    const rows = [...text.matchAll(/^\| `(\d{3})` \| `\{"error":\{"code":(\d+),/gm)].map(([, status, code]) => [Number(status), Number(code)]);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const byNumber = new Map<number, number>(Object.values(errorRegistry).map((e) => [e.number, e.status]));
    for (const [status, code] of rows) expect(byNumber.get(code), `code ${code}`).toBe(status);
  });
});
