/**
 * JSON.parse for data: keys `__proto__` and `constructor` are dropped at every
 * depth. JSON.parse itself makes them own properties (harmless to read), but
 * a later copy by assignment (`target[key] = value`, Object.assign) turns a
 * `__proto__` key into the copy's prototype, and a lookup such as
 * `key in table` or `table[key]` finds `constructor` on every object. No
 * field Parley reads has either name, so dropping them changes no real body.
 *
 * The reviver costs a second walk of the value; it runs only when the text
 * could hold such a key: spelled out, or behind a \\u escape.
 */

/** Could `text` decode to a key `__proto__` or `constructor`? (A cheap superset.) */
const MAYBE_RESERVED = /proto|constructor|\\u/;

function dropReserved(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}

/** JSON.parse without `__proto__` and `constructor` keys; throws a SyntaxError for malformed text, as JSON.parse does. */
export function parseJsonData(text: string): unknown {
  return MAYBE_RESERVED.test(text) ? (JSON.parse(text, dropReserved) as unknown) : (JSON.parse(text) as unknown);
}
