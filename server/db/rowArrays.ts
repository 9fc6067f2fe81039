/**
 * Many rows in one statement, for the modules that own a table's inserts
 * (domain/chats/insertChats.ts, domain/visitors/insertVisitors.ts,
 * domain/messages/insertMessage.ts, events/outbox.ts). The rows come from
 * the module's one row builder; these helpers only lay them out for the store:
 *
 * - PostgreSQL: one array per column, `unnest(cast($1 as integer[]), …) with
 *   ordinality as r(col, …, position)` (one statement text whatever the number
 *   of rows; the position keeps the order given);
 * - SQLite: one JSON array of arrays read by `json_each`, column i as
 *   `r.value ->> i`, `r.key` the row's place.
 */
import { sql, type RawBuilder } from 'kysely';

/** A column's type in PostgreSQL, for the cast of its array. */
export type PgType = 'integer' | 'bigint' | 'text' | 'double precision' | 'boolean';

/** PostgreSQL: `unnest(…) with ordinality as alias(columns…, position)` over the rows' values. */
export function unnestRows<R, C extends keyof R & string>(
  rows: readonly R[],
  columns: readonly C[],
  types: Readonly<Record<C, PgType>>,
  alias: string,
): RawBuilder<unknown> {
  const arrays = columns.map((c) => sql`cast(${rows.map((r) => r[c])} as ${sql.raw(types[c])}[])`);
  return sql`unnest(${sql.join(arrays)}) with ordinality as ${sql.raw(alias)}(${sql.raw(columns.join(', '))}, position)`;
}

/** SQLite: the rows' values as one JSON array of arrays (bind it to `json_each(?)`). */
export function jsonRows<R, C extends keyof R & string>(rows: readonly R[], columns: readonly C[]): string {
  return JSON.stringify(rows.map((r) => columns.map((c) => r[c])));
}

/** SQLite: the select list reading `jsonRows`' columns from `json_each(…) alias`. */
export function jsonColumns(columns: readonly string[], alias: string): RawBuilder<unknown> {
  return sql.raw(columns.map((_, i) => `${alias}.value ->> ${i}`).join(', '));
}
