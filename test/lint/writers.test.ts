/**
 * One writer per row kind (issue #34): every insert of a visitor, chat,
 * message or event row is in the one module that owns that table, which
 * builds the row (defaults and all) in one place and holds its statement per
 * dialect. Migrations and tests aside, a second writer anywhere under server/
 * fails here: write through the owner instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Each table's one writer. */
const OWNERS: Record<string, string> = {
  visitors: 'server/domain/visitors/insertVisitors.ts',
  chats: 'server/domain/chats/insertChats.ts',
  messages: 'server/domain/messages/insertMessage.ts',
  events: 'server/events/outbox.ts',
};

/**
 * Files that insert into a table named at run time (insertInto(variable), `insert into ${table}`),
 * none of the tables above: each entry says which.
 */
const DYNAMIC: Record<string, string> = {
  'server/domain/reports/rollupBatch.ts': 'report_chat_facts and the report rollup tables',
};

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === 'server/db/migrations' ? [] : sources(rel);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** The tables a source inserts into (SQL text or Kysely), and whether it inserts into a table named at run time. */
export function insertsOf(text: string): { tables: Set<string>; dynamic: boolean } {
  const tables = new Set<string>();
  for (const m of text.matchAll(/\b(?:insert|replace)\s+(?:or\s+\w+\s+)?into\s+["`]?(\w+)/gi)) tables.add(m[1].toLowerCase());
  for (const m of text.matchAll(/\b(?:insertInto|replaceInto|mergeInto)\(\s*(['"`])(\w+)\1/g)) tables.add(m[2]);
  const dynamic = /\b(?:insertInto|replaceInto|mergeInto)\(\s*[^'"`\s)]/.test(text) || /\binsert\s+into\s+\$\{/i.test(text);
  return { tables, dynamic };
}

describe('one writer per row kind', () => {
  const files = sources('server').map((rel) => ({ rel, ...insertsOf(fs.readFileSync(path.join(ROOT, rel), 'utf8')) }));

  it('finds inserts written either way', () => {
    expect([...insertsOf("tx.insertInto('chats').values(row)").tables]).toEqual(['chats']);
    expect([...insertsOf('sql`insert into "visitors" (id) values (1)`').tables]).toEqual(['visitors']);
    expect([...insertsOf('INSERT OR IGNORE INTO messages (id)').tables]).toEqual(['messages']);
    expect(insertsOf('db.insertInto(table)').dynamic).toBe(true);
    expect(insertsOf('sql`insert into ${sql.raw(name)} (a)`').dynamic).toBe(true);
    expect(insertsOf("db.insertInto('chat_reads')").tables.has('chats')).toBe(false);
  });

  for (const [table, owner] of Object.entries(OWNERS)) {
    it(`${table} rows are inserted by ${owner} only`, () => {
      const writers = files.filter((f) => f.tables.has(table)).map((f) => f.rel);
      expect(writers).toEqual([owner]);
    });
  }

  it('no other file inserts into a table named at run time', () => {
    const dynamic = files.filter((f) => f.dynamic).map((f) => f.rel);
    expect(dynamic.sort()).toEqual(Object.keys(DYNAMIC).sort());
  });
});
