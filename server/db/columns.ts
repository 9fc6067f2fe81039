/**
 * Column types that differ between SQLite and PostgreSQL, so a migration is
 * written once for both dialects.
 */
import type { ColumnDefinitionBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

// The largest id lives in lib/ (the routes check ids from outside against it, and import nothing of db/).
export { MAX_ID } from '../lib/ids.js';

export interface ColumnKinds {
  dialect: DialectName;
  id: 'integer';
  /** Epoch milliseconds (and other values past 2^31). */
  time: 'integer' | 'bigint';
  real: 'real' | 'double precision';
}

export function columnKinds(dialect: DialectName): ColumnKinds {
  return dialect === 'postgres'
    ? { dialect, id: 'integer', time: 'bigint', real: 'double precision' }
    : { dialect, id: 'integer', time: 'integer', real: 'real' };
}

export function idColumn(k: ColumnKinds) {
  return (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    k.dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export function timeColumn(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return c.notNull();
}
