/**
 * Every language of the agent app says everything English says: the same keys,
 * the same `{name}` values in each text, a plural with every form its
 * language's rules pick (Intl.PluralRules), no empty text; and `t`/`tn` put the
 * values in, in the language's own number format.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_LANGUAGES } from '../../../../protocol/agent';
import { en, type Plural, type Texts } from './en';
import arCommon from './ar/common.json';
import arWorkspace from './ar/workspace.json';
import arPages from './ar/pages.json';
import arAdmin from './ar/admin.json';
import deCommon from './de/common.json';
import deWorkspace from './de/workspace.json';
import dePages from './de/pages.json';
import deAdmin from './de/admin.json';
import esCommon from './es/common.json';
import esWorkspace from './es/workspace.json';
import esPages from './es/pages.json';
import esAdmin from './es/admin.json';
import frCommon from './fr/common.json';
import frWorkspace from './fr/workspace.json';
import frPages from './fr/pages.json';
import frAdmin from './fr/admin.json';
import ptCommon from './pt/common.json';
import ptWorkspace from './pt/workspace.json';
import ptPages from './pt/pages.json';
import ptAdmin from './pt/admin.json';
import ruCommon from './ru/common.json';
import ruWorkspace from './ru/workspace.json';
import ruPages from './ru/pages.json';
import ruAdmin from './ru/admin.json';
import trCommon from './tr/common.json';
import trWorkspace from './tr/workspace.json';
import trPages from './tr/pages.json';
import trAdmin from './tr/admin.json';
import ukCommon from './uk/common.json';
import ukWorkspace from './uk/workspace.json';
import ukPages from './uk/pages.json';
import ukAdmin from './uk/admin.json';

// Each language is four JSON files (common, workspace, pages, admin): together they say everything English says.
const LANGUAGES: Record<string, Texts> = {
  en,
  ru: { ...ruCommon, ...ruWorkspace, ...ruPages, ...ruAdmin },
  es: { ...esCommon, ...esWorkspace, ...esPages, ...esAdmin },
  de: { ...deCommon, ...deWorkspace, ...dePages, ...deAdmin },
  fr: { ...frCommon, ...frWorkspace, ...frPages, ...frAdmin },
  pt: { ...ptCommon, ...ptWorkspace, ...ptPages, ...ptAdmin },
  tr: { ...trCommon, ...trWorkspace, ...trPages, ...trAdmin },
  uk: { ...ukCommon, ...ukWorkspace, ...ukPages, ...ukAdmin },
  ar: { ...arCommon, ...arWorkspace, ...arPages, ...arAdmin },
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
