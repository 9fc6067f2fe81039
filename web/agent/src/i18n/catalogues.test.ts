/**
 * Every language of the agent app says everything English says: the same keys,
 * the same `{name}` values in each text, a plural with every form its
 * language's rules pick (Intl.PluralRules), no empty text; and `t`/`tn` put the
 * values in, in the language's own number format.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_LANGUAGES } from '../../../../protocol/agent';
import { en, type Plural, type Texts } from './en';
import { texts as arCore } from './ar';
import { admin as arAdmin } from './ar/admin';
import { texts as deCore } from './de';
import { admin as deAdmin } from './de/admin';
import { texts as esCore } from './es';
import { admin as esAdmin } from './es/admin';
import { texts as frCore } from './fr';
import { admin as frAdmin } from './fr/admin';
import { texts as ptCore } from './pt';
import { admin as ptAdmin } from './pt/admin';
import { texts as ruCore } from './ru';
import { admin as ruAdmin } from './ru/admin';
import { texts as trCore } from './tr';
import { admin as trAdmin } from './tr/admin';
import { texts as ukCore } from './uk';
import { admin as ukAdmin } from './uk/admin';

// Each language is two chunks (its core and its admin part): together they say everything English says.
const LANGUAGES: Record<string, Texts> = {
  en,
  ru: { ...ruCore, ...ruAdmin },
  es: { ...esCore, ...esAdmin },
  de: { ...deCore, ...deAdmin },
  fr: { ...frCore, ...frAdmin },
  pt: { ...ptCore, ...ptAdmin },
  tr: { ...trCore, ...trAdmin },
  uk: { ...ukCore, ...ukAdmin },
  ar: { ...arCore, ...arAdmin },
};
const valuesOf = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const formsOf = (v: string | Plural): string[] => (typeof v === 'string' ? [v] : Object.values(v).filter((x): x is string => typeof x === 'string'));

describe('agent app catalogues', () => {
  it('has a catalogue for every language the API accepts', () => {
    expect(Object.keys(LANGUAGES).sort()).toEqual([...AGENT_LANGUAGES].sort());
  });

  for (const [lang, texts] of Object.entries(LANGUAGES)) {
    it(`${lang}: the same keys as English, each text with the same {values}, no empty text`, () => {
      expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort());
      const wrong: string[] = [];
      for (const [key, source] of Object.entries(en) as [keyof Texts, string | Plural][]) {
        const text = texts[key];
        if (typeof source !== typeof text) {
          wrong.push(`${key}: ${typeof source === 'string' ? 'a text' : 'a plural'} in English`);
          continue;
        }
        const wanted = valuesOf(formsOf(source).join(' ')).filter((v, i, a) => a.indexOf(v) === i);
        for (const form of formsOf(text)) {
          if (form.trim() === '') wrong.push(`${key}: empty`);
          // A plural's form may leave out {count} ("one chat"); every other value must be there.
          const got = valuesOf(form).filter((v, i, a) => a.indexOf(v) === i);
          const missing = wanted.filter((v) => !got.includes(v) && !(typeof text !== 'string' && v === 'count'));
          const unknown = got.filter((v) => !wanted.includes(v) && v !== 'count');
          if (missing.length || unknown.length)
            wrong.push(`${key}: ${JSON.stringify(form)} misses {${missing.join('}, {')}} or adds {${unknown.join('}, {')}}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it(`${lang}: every plural has each form Intl.PluralRules picks in ${lang}`, () => {
      const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const missing: string[] = [];
      for (const [key, text] of Object.entries<string | Plural>(texts)) {
        if (typeof text === 'string') continue;
        for (const form of needed) if (form !== 'zero' && !(form in text) && form !== 'other') missing.push(`${key}.${form}`);
        if (!text.other) missing.push(`${key}.other`);
      }
      expect(missing).toEqual([]);
    });
  }
});
