/**
 * What a migration is given: the database at the level the migrations before
 * it left, which no table type of today (schema.ts) describes. The one place
 * a migration's `any` is allowed: migrations must not depend on the app's
 * evolving types.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;
