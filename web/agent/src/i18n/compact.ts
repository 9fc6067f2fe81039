/**
 * The compact form another language's catalogue ships in (docs/I18N.md): its
 * texts alone, as a JSON array in the order of the English catalogue's keys,
 * which the app already holds; a key the language lacks is null (and reads
 * English). The build (web/agent/i18nCompact.ts) writes it, the app decodes it.
 */
/** A text that depends on a count: the forms Intl.PluralRules names (`other` is required). */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

export type Entry = string | Plural;

/** A catalogue (or the part of it `keys` name) as its texts in the order of `keys`. */
export function compactTexts(keys: readonly string[], catalogue: Readonly<Record<string, Entry>>): Array<Entry | null> {
  return keys.map((k) => catalogue[k] ?? null);
}

/**
 * The catalogue again from its compact texts and the English keys they follow.
 * A catalogue not compacted (the source JSON, as the tests and the dev server
 * without the plugin import it) is taken as it is.
 */
export function decodeTexts(keys: readonly string[], shipped: unknown): Record<string, Entry> {
  if (!Array.isArray(shipped)) return shipped as Record<string, Entry>;
  const texts: Record<string, Entry> = {};
  keys.forEach((k, i) => {
    const v = shipped[i] as Entry | null | undefined;
    if (v !== null && v !== undefined) texts[k] = v;
  });
  return texts;
}
