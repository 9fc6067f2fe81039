/**
 * Every language of the agent app says everything English says: the same keys,
 * the same `{name}` values in each text, a plural with every form its
 * language's rules pick (Intl.PluralRules), no empty text; and `t`/`tn` put the
 * values in, in the language's own number format.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_LANGUAGES } from '../../../../protocol/agent';
import { en, type Plural, type Texts } from './en';
import { texts as ar } from './ar';
import { texts as de } from './de';
import { texts as es } from './es';
import { texts as fr } from './fr';
import { texts as pt } from './pt';
import { texts as ru } from './ru';
import { texts as tr } from './tr';
import { texts as uk } from './uk';

const LANGUAGES: Record<string, Texts> = { en, ru, es, de, fr, pt, tr, uk, ar };
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
