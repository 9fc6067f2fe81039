/** The named members of `o` (each key set, undefined where `o` has none): a body's documented fields, the rest ignored. */
export function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = o[k];
  return out;
}
