/**
 * Shared pieces of the property tests: the number of runs (FUZZ_RUNS raises
 * every file's count; bench/fuzz.ts runs 100,000), hostile values for any
 * field, and a fingerprint of stored rows that stays cheap as tables grow (whole
 * small tables; count, newest rows and chosen rows of growing ones), to show
 * that a refused request changed nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Database } from '../../server/db/schema.js';
import type { TestApp } from '../helpers/testApp.js';

/** FUZZ_RUNS when set (the long mode), else this file's default. */
export const runs = (byDefault: number): number => {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : byDefault;
};

/**
 * vitest timeout for a property of `cases` cases, at a generous few ms each: files run side by
 * side on a 2-core CI machine (vitest.config.ts), where a PostgreSQL case (a request and two
 * fingerprints) takes up to about 100 ms; a case timed out at 40 ms went on in the background
 * and spoiled the retry's fingerprints.
 */
export const timeoutFor = (cases: number, msPerCase = 150): number => Math.max(30_000, cases * msPerCase);

/** encodeURIComponent, except that a lone surrogate (which no URL can carry) becomes "?" instead of throwing. */
export function encodeSafely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'));
  }
}

/** Strings that break naive code: markup, control characters, very long, unicode, SQL, paths, numbers as text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '<script>window.__xss=1</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    "'; DROP TABLE messages; --",
    '../../../../etc/passwd',
    '\u0000\u0001\u001f\u007f',
    '\ud800',
    '\u202e\u2066',
    'NaN',
    '-1',
    '1e309',
    '__proto__',
    'constructor',
    '%00',
    'http://127.0.0.1/',
    'https://example.com/a.png',
    '+15550100199',
    'a@b.co',
  ),
  fc.integer({ min: 0, max: 3 }).map((k) => 'x'.repeat([256, 1001, 5000, 70_000][k])),
);

/** Any JSON-ish value, hostile scalars included. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
);

/** A body as sent on the wire: JSON of a value (often an object), broken JSON, raw text, or nothing; with some Content-Type. */
export function wireBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<{ payload: string | undefined; contentType: string | undefined }> {
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'APPLICATION/JSON',
    undefined,
  );
  return fc.oneof(
    { arbitrary: fc.record({ payload: value.map((v) => JSON.stringify(v) ?? 'null'), contentType: fc.constant('application/json') }), weight: 8 },
    { arbitrary: fc.record({ payload: value.map((v) => JSON.stringify(v) ?? 'null'), contentType }), weight: 2 },
    {
      arbitrary: fc.record({ payload: value.map((v) => (JSON.stringify(v) ?? 'null').slice(0, -1)), contentType: fc.constant('application/json') }),
      weight: 1,
    },
    { arbitrary: fc.record({ payload: fc.oneof(fc.string({ maxLength: 60 }), fc.json()), contentType }), weight: 1 },
    {
      arbitrary: fc.record({ payload: fc.constantFrom(undefined, '', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'), contentType }),
      weight: 1,
    },
  );
}

type Table = keyof Database;
/** Tables with an integer `id`, whose newest rows can be read. */
export type IdTable = Exclude<Table, 'channel_agents' | 'settings' | 'inbound_dedup'>;

export interface Watch {
  /** Every row. */
  full: Table[];
  /** Count, the 50 newest rows, and the rows of the given ids. */
  tail?: Partial<Record<IdTable, number[]>>;
  /** Files in these directories. */
  dirs?: string[];
}

/** What `watch` names, as comparable data. */
export async function fingerprint(t: TestApp, watch: Watch): Promise<Record<string, unknown>> {
  const db = t.app.ctx.db;
  const out: Record<string, unknown> = {};
  for (const table of watch.full) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  for (const [table, pinned] of Object.entries(watch.tail ?? {}) as Array<[IdTable, number[]]>) {
    // One table type stands for all of them: every IdTable has an integer id.
    const from = db.selectFrom(table as 'messages');
    const count = Number((await from.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const newest = await from.selectAll().orderBy('id', 'desc').limit(50).execute();
    const chosen = pinned.length ? await from.selectAll().where('id', 'in', pinned).orderBy('id').execute() : [];
    out[table] = { count, newest: newest.map((r) => JSON.stringify(r)), chosen: chosen.map((r) => JSON.stringify(r)) };
  }
  for (const dir of watch.dirs ?? []) out[`dir:${path.basename(dir)}`] = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  return out;
}

/** Status counts, for a property's closing check that its generators reach both sides of the rules. */
export class Outcomes {
  readonly byStatus: Record<number, number> = {};
  add(status: number): void {
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }
  count(pred: (status: number) => boolean): number {
    return Object.entries(this.byStatus).reduce((n, [s, c]) => (pred(Number(s)) ? n + c : n), 0);
  }
}
