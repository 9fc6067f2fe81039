/**
 * docs/ERRORS.md and the error registry stay equal: same codes, statuses,
 * numbers and default messages. On a difference the failure says exactly
 * which rows to add, remove or change in the doc.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorRegistry, type ErrorCode } from './registry.js';

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/ERRORS.md');

interface DocRow {
  code: string;
  status: number;
  number: number;
  message: string;
  when: string;
}

/** Markdown table cells, with `\|` kept inside a cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

const unescape = (text: string): string => text.replace(/\\\|/g, '|').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');

/** Rows of the table under "## Codes": `| \`code\` | status | number | message | when |`. */
function parseDoc(markdown: string): DocRow[] {
  const section = markdown.split(/^## Codes\s*$/m)[1] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) => {
      const [code = '', status = '', number = '', message = '', when = ''] = cells(line);
      return { code: code.replace(/`/g, ''), status: Number(status), number: Number(number), message: unescape(message), when };
    });
}

function docRow(code: ErrorCode): string {
  const { status, number, message } = errorRegistry[code];
  return `| \`${code}\` | ${status} | ${number} | ${escape(message)} | <when it happens> |`;
}

describe('error registry', () => {
  const codes = Object.keys(errorRegistry) as ErrorCode[];

  it('gives every code a distinct number and an error status', () => {
    const numbers = codes.map((c) => errorRegistry[c].number);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z][a-z_]*$/);
      expect(errorRegistry[code].status).toBeGreaterThanOrEqual(400);
      expect(errorRegistry[code].status).toBeLessThan(600);
      expect(errorRegistry[code].message.length).toBeGreaterThan(0);
    }
  });

  it('is listed exactly in docs/ERRORS.md', () => {
    const rows = parseDoc(fs.readFileSync(docPath, 'utf8'));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    const problems: string[] = [];

    const missing = codes.filter((c) => !byCode.has(c));
    if (missing.length > 0) {
      problems.push(`Add these rows to the table under "## Codes" in docs/ERRORS.md (and say when each happens):\n${missing.map(docRow).join('\n')}`);
    }
    const extra = rows.filter((r) => !(r.code in errorRegistry));
    if (extra.length > 0) {
      problems.push(`Remove these rows from docs/ERRORS.md (no such code in server/errors/registry.ts): ${extra.map((r) => r.code).join(', ')}`);
    }
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.code)) problems.push(`docs/ERRORS.md lists ${row.code} twice.`);
      seen.add(row.code);
    }
    for (const code of codes) {
      const row = byCode.get(code);
      const entry = errorRegistry[code];
      if (!row) continue;
      if (row.status !== entry.status || row.number !== entry.number || row.message !== entry.message) {
        problems.push(`Change the row of ${code} in docs/ERRORS.md to:\n${docRow(code).replace('<when it happens>', row.when || '<when it happens>')}`);
      }
      if (row.when === '' || row.when.includes('<when it happens>')) problems.push(`Say when ${code} happens in docs/ERRORS.md.`);
    }

    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('documents both error body shapes', () => {
    const doc = fs.readFileSync(docPath, 'utf8');
    expect(doc).toContain('{"error":{"code":"<machine_code>","message":"<human sentence>"}}');
    expect(doc).toContain('{"error":{"code":<number>,"message":"<what is wrong>"}}');
  });
});
