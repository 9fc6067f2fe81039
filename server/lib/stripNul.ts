/**
 * NUL characters (U+0000) never mean anything in chat text, names or URLs, and
 * PostgreSQL cannot store them in text columns (SQLite would, so the two
 * stores would differ). Every body, query string and path parameter is
 * cleaned of them once, before validation (app.ts); bodies parsed later (the chat channel's)
 * call stripNul themselves.
 *
 * A `__proto__` key is dropped (assigning it would replace the copy's prototype).
 * The walk is iterative (an explicit stack, no recursion), so a deeply nested
 * value cannot overflow the call stack, whatever produced it.
 */
const cleanString = (s: string): string => (s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);

const isContainer = (v: unknown): v is object =>
  v !== null && typeof v === 'object' && (Array.isArray(v) || (!Buffer.isBuffer(v) && !(v instanceof Uint8Array)));

export function stripNul<T>(value: T): T {
  if (typeof value === 'string') return cleanString(value) as T;
  if (!isContainer(value)) return value;
  const root: unknown[] | Record<string, unknown> = Array.isArray(value) ? [] : {};
  // Each entry: a source container and the copy to fill.
  const stack: [object, unknown[] | Record<string, unknown>][] = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    const copy = (v: unknown): unknown => {
      if (typeof v === 'string') return cleanString(v);
      if (!isContainer(v)) return v;
      const child: unknown[] | Record<string, unknown> = Array.isArray(v) ? [] : {};
      stack.push([v, child]);
      return child;
    };
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (const v of source as unknown[]) out.push(copy(v));
    } else {
      const out = target as Record<string, unknown>;
      for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
        const key = cleanString(k);
        // A JSON "__proto__" key would set the copy's prototype: dropped, as the body parser does.
        if (key !== '__proto__') out[key] = copy(v);
      }
    }
  }
  return root as T;
}
