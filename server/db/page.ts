/**
 * One page of a list (/openapi.json) as the queries see it: newest first by id,
 * at most `limit` rows, only ids below `before`. Routes read `?limit=` and
 * `?before=` into a Page (routes/pagination.ts); domain list queries apply it
 * to their select with applyPage().
 */
import { sql, type SelectQueryBuilder } from 'kysely';

export interface Page {
  limit: number;
  /** Only ids below this one; null = from the newest. */
  before: number | null;
}

/** Newest first by `idColumn`, below page.before, at most page.limit rows. */
export function applyPage<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, page: Page, idColumn: string): SelectQueryBuilder<DB, TB, O> {
  const id = sql.ref(idColumn);
  const filtered = page.before === null ? qb : qb.where(sql<boolean>`${id} < ${page.before}`);
  return filtered.orderBy(id, 'desc').limit(page.limit);
}
