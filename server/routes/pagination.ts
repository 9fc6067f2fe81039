/**
 * List rules of /openapi.json, shared by every list route: `?limit=` (default
 * 100, at most 1000) and `?before=<id>` for the next page; rows come newest
 * first, by id descending. Querystrings arrive as strings, so PageQuery takes
 * strings and readPage() turns them into a Page or refuses them with a clear
 * 400. The Page itself, and applyPage() that adds its clauses to a Kysely
 * select, are the queries' business: db/page.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ID } from '../lib/ids.js';
import type { Page } from '../db/page.js';
import { invalid } from '../errors/AppError.js';

export { MAX_ID };
export type { Page };

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ description: `How many rows to return: an integer from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` })),
    before: Type.Optional(Type.String({ description: 'Return only rows whose id is smaller than this one (the last id of the previous page).' })),
  },
  { additionalProperties: true },
);
export type PageQueryT = Static<typeof PageQuery>;

const DIGITS = /^\d{1,16}$/;

/** Applies the defaults and bounds of /openapi.json; a bad value → 400 validation_failed. */
export function readPage(query: Partial<PageQueryT> | undefined): Page {
  const rawLimit = query?.limit;
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    const n = Number(rawLimit);
    if (!DIGITS.test(rawLimit) || n < 1 || n > MAX_LIMIT) {
      throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT} (got "${String(rawLimit).slice(0, 40)}").`);
    }
    limit = n;
  }
  const rawBefore = query?.before;
  let before: number | null = null;
  if (rawBefore !== undefined) {
    const n = Number(rawBefore);
    if (!DIGITS.test(rawBefore) || n < 1) {
      throw invalid(`before must be the id of a row, a positive whole number (got "${String(rawBefore).slice(0, 40)}").`);
    }
    // An id past the largest possible one means "from the newest".
    before = n > MAX_ID ? null : n;
  }
  return { limit, before };
}
