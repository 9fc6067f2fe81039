/**
 * NUL characters (U+0000) never mean anything in chat text, names or URLs, and
 * PostgreSQL cannot store them in text columns (SQLite would, so the two
 * stores would differ). Every body, query string and path parameter is
 * cleaned of them once, before validation (app.ts); bodies parsed later (the chat channel's)
 * call stripNul themselves.
 */
export function stripNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '') : value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((v) => stripNul(v)) as T;
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[stripNul(k)] = stripNul(v);
    return out as T;
  }
  return value;
}
