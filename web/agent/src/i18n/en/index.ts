/**
 * English, the agent app's source language: every other language has the
 * same keys (the types make a missing one a compile error, and
 * i18n/catalogues.test.ts checks the `{name}` values too). Each part of the
 * app keeps its texts in a file of its own; keys start with the part's name.
 * Each other language is two chunks: its core (common, workspace, pages) and
 * its admin part, so an agent who never opens an admin page never loads it.
 */
import { admin } from './admin';
import { common } from './common';
import { pages } from './pages';
import { workspace } from './workspace';

/** A text that depends on a count: the forms Intl.PluralRules names (`other` is required). */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

/** What every agent's screens say: loaded with the language. The admin pages' texts load when an admin page opens. */
export const core = { ...common, ...workspace, ...pages };
export const en = { ...core, ...admin };

/** Another language's version of a part of the catalogue: every key, plain texts as texts and plurals as plurals. */
export type Translated<T> = { [K in keyof T]: T[K] extends string ? string : Plural };
export type Texts = Translated<typeof en>;
export type CoreTexts = Translated<typeof core>;
export type AdminTexts = Translated<typeof admin>;
export type TextKey = { [K in keyof Texts]: Texts[K] extends string ? K : never }[keyof Texts];
export type PluralKey = { [K in keyof Texts]: Texts[K] extends string ? never : K }[keyof Texts];
