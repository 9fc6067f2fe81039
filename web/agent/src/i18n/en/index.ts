/**
 * English, the agent app's source language: every other language has the
 * same keys (i18n/catalogues.test.ts checks them and their `{name}` values).
 * The catalogues are JSON, one file per part of the app (common, workspace,
 * pages, admin); keys start with the part's name. English is in the app's
 * bundle and gives the keys their types; another language ships as its
 * core (common, workspace, pages) and its admin pages' texts in groups
 * (groups.ts), each compacted to its texts in the English keys' order
 * (compact.ts).
 */
import admin from './admin.json';
import common from './common.json';
import pages from './pages.json';
import workspace from './workspace.json';

import type { Plural } from '../compact';

export type { Plural };

/** The English catalogue files, whose keys' order the compact catalogues follow. */
export const enParts = { common, workspace, pages, admin };
export const CORE_PARTS = ['common', 'workspace', 'pages'] as const;

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
