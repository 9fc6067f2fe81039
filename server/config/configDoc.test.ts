/**
 * docs/CONFIG.md and the configuration stay equal: the table under
 * "## Variables" lists exactly the variables loadConfig reads, every example
 * in it is accepted, every documented default set explicitly gives the same
 * configuration as leaving the variable unset, and "## What each one does"
 * explains every variable. On a difference the failure says which rows to
 * add, remove or change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const docPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/CONFIG.md');
const doc = fs.readFileSync(docPath, 'utf8');

interface DocRow {
  name: string;
  defaultCell: string;
  example: string;
}

/** Rows of the table under "## Variables": `| \`NAME\` | default | \`NAME=value\` | accepted values |`. */
function parseTable(markdown: string): DocRow[] {
  const section = (markdown.split(/^## Variables\s*$/m)[1] ?? '').split(/^## /m)[0];
  return section
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) => {
      const [name = '', defaultCell = '', example = ''] = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
      return { name: name.replace(/`/g, ''), defaultCell, example: example.replace(/`/g, '') };
    });
}

/** Every variable loadConfig reads: an environment that records each key asked for (with `env` as the values). */
function variablesRead(env: Record<string, string> = {}): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return typeof key === 'string' ? target[key] : undefined;
    },
  });
  try {
    loadConfig(recording);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
  }
  return read;
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('docs/CONFIG.md', () => {
  const rows = parseTable(doc);
  const examples = Object.fromEntries(rows.map((r) => [r.name, r.example.slice(r.example.indexOf('=') + 1)]));
  // Read once with nothing set and once with every documented example set (a variable read only when another is set counts too).
  const read = new Set([...variablesRead(), ...variablesRead(examples)]);

  it('lists exactly the variables the configuration reads', () => {
    const documented = new Set(rows.map((r) => r.name));
    const problems: string[] = [];
    const missing = [...read].filter((name) => !documented.has(name));
    if (missing.length > 0) {
      problems.push(
        `Add these rows to the table under "## Variables" in docs/CONFIG.md:\n${missing.map((n) => `| \`${n}\` | <default> | \`${n}=<example>\` | <accepted values> |`).join('\n')}`,
      );
    }
    const extra = rows.filter((r) => !read.has(r.name)).map((r) => r.name);
    if (extra.length > 0) problems.push(`Remove these rows from docs/CONFIG.md (server/config/config.ts does not read them): ${extra.join(', ')}`);
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.name)) problems.push(`docs/CONFIG.md lists ${row.name} twice.`);
      seen.add(row.name);
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  /**
   * A variable naming a file is read at start: its example's path (a server's, absent here) is
   * replaced by a file of the same kind, so the check is of the rest of the value.
   */
  const FILE_CONTENT: Record<string, string> = {
    SMTP_TLS_CA_FILE: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  };
  /** An example accepted only beside another variable: beyond loopback, HOST needs a metrics token (or METRICS_PUBLIC=1). */
  const COMPANIONS: Record<string, Record<string, string>> = {
    HOST: { METRICS_TOKEN: '3f9c0a8e51b2d7460c1e9a3f5b8d2c7e' },
  };
  function exampleValue(name: string, value: string): string {
    const content = FILE_CONTENT[name];
    if (content === undefined) return value;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-config-doc-')), path.basename(value));
    fs.writeFileSync(file, content);
    return file;
  }

  it('gives every variable an example the configuration accepts', () => {
    const problems: string[] = [];
    for (const row of rows) {
      if (!row.example.startsWith(`${row.name}=`)) {
        problems.push(`The example of ${row.name} in docs/CONFIG.md should read \`${row.name}=<value>\` (it reads "${row.example}").`);
        continue;
      }
      const refused = problemsOf({ ...COMPANIONS[row.name], [row.name]: exampleValue(row.name, row.example.slice(row.name.length + 1)) });
      if (refused.length > 0) problems.push(`The example \`${row.example}\` in docs/CONFIG.md is refused: ${refused.join('; ')}`);
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('documents the defaults the configuration uses', () => {
    const unset = loadConfig({});
    const problems: string[] = [];
    for (const row of rows) {
      // A literal default is the first `value` of the cell; "unset …" and defaults derived from another variable ($PORT) are not literals.
      const literal = /^`([^`$]*)`/.exec(row.defaultCell)?.[1];
      if (literal === undefined) {
        if (!/^unset\b/.test(row.defaultCell) && !row.defaultCell.includes('$')) {
          problems.push(
            `The default of ${row.name} in docs/CONFIG.md should be a \`value\`, "unset …" or derived from another variable (it reads "${row.defaultCell}").`,
          );
        }
        continue;
      }
      const given = problemsOf({ [row.name]: literal });
      if (given.length > 0) {
        problems.push(`The documented default of ${row.name} (${literal}) is refused: ${given.join('; ')}`);
        continue;
      }
      if (JSON.stringify(loadConfig({ [row.name]: literal })) !== JSON.stringify(unset)) {
        problems.push(`docs/CONFIG.md says ${row.name} defaults to ${literal}, but setting it to that changes the configuration: correct the default.`);
      }
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('says what every variable does', () => {
    const section = doc.split(/^## What each one does\s*$/m)[1] ?? '';
    const explained = new Set([...section.matchAll(/^- \*\*(.+?)\*\*/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z_]+)`/g)].map((n) => n[1])));
    const unexplained = rows.map((r) => r.name).filter((name) => !explained.has(name));
    expect(unexplained, `Explain these variables under "## What each one does" in docs/CONFIG.md: ${unexplained.join(', ')}`).toEqual([]);
  });
});
