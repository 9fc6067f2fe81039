/**
 * docs/DEPLOY.md says, for every command of its `sh` blocks, which test runs
 * it or why none can here ("Which test runs each command"). This keeps that
 * table whole: a command added to the page without a row fails here, and so
 * does a row naming a test file that is not there or a row no command uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/DEPLOY.md'), 'utf8');

/** Each command of the page's sh blocks: continuations joined, heredoc bodies and comments left out, `&&` and `;` split. */
function commands(): string[] {
  const out: string[] = [];
  for (const [, block] of doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].replace(/\s+#.*$/, '').trim();
      if (line === '' || line.startsWith('#')) continue;
      const heredoc = /<<'?(\w+)'?/.exec(line);
      if (heredoc) while (i + 1 < lines.length && lines[++i].trim() !== heredoc[1]);
      for (const part of line.split(/\s*(?:&&|;)\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/)) if (part.trim() !== '') out.push(part.trim());
    }
  }
  return out;
}

const section = doc.slice(doc.indexOf('## Which test runs each command'));
const rows = [...section.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map(([, prefix, by]) => ({ prefix, by }));

describe('docs/DEPLOY.md: which test runs each command', () => {
  it('finds the page’s commands and the table', () => {
    expect(commands().length).toBeGreaterThan(40);
    expect(rows.length).toBeGreaterThan(20);
  });

  it('has a row for every command of the page', () => {
    const missing = commands().filter((c) => !rows.some((r) => c.startsWith(r.prefix)));
    expect(missing).toEqual([]);
  });

  it('names only test files that exist, and says why where no test runs the command', () => {
    for (const { prefix, by } of rows) {
      const named = [...by.matchAll(/`((?:test|server|\.ci|scripts)\/[^`\s]+|\.ci\/run)`/g)].map((m) => m[1]);
      for (const file of named) expect(fs.existsSync(path.join(ROOT, file)), `${prefix}: ${file}`).toBe(true);
      if (named.length === 0) expect(by, prefix).toMatch(/^not (run|a step)/);
    }
  });

  it('has no row that no command of the page uses', () => {
    const all = commands();
    expect(rows.filter((r) => !all.some((c) => c.startsWith(r.prefix))).map((r) => r.prefix)).toEqual([]);
  });
});
