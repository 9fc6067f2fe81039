/**
 * The agent app's languages (docs/I18N.md): English is in the app's bundle;
 * each other language is a chunk of its own, loaded at start (the agent's
 * choice from GET /api/v1/me, remembered in this browser, else the
 * browser's languages). Components read every text through `t` (a text with
 * `{name}` values put in) or `tn` (a plural, its form chosen by
 * Intl.PluralRules); dates, times and numbers go through the Intl helpers
 * below, in the same language. `<html lang dir>` follows the language, rtl
 * for Arabic.
 */
// The admin groups' `./ru/admin.json?team` imports (a reference, so the e2e project that imports this file sees them too).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./json.d.ts" />
import { useSyncExternalStore } from 'react';
import { AGENT_LANGUAGES, type AgentLanguage } from '../../../../protocol/agent';
import { CORE_PARTS, en, enParts, type PluralKey, type TextKey, type Texts, type Plural } from './en';
import { decodeTexts } from './compact';
import { ADMIN_GROUPS, SECTION_GROUP, groupKeys, type AdminGroup } from './groups';
import type { AdminSection } from '../routes';

export type { AgentLanguage };
export { AGENT_LANGUAGES };

type Other = Exclude<AgentLanguage, 'en'>;
/** A language's core chunk: its common, workspace and pages catalogues (compacted by the build: i18n/compact.ts). */
type Core = Record<(typeof CORE_PARTS)[number], unknown>;
const LOAD: Record<Other, () => Promise<Core>> = {
  ru: () => import('./ru'),
  es: () => import('./es'),
  de: () => import('./de'),
  fr: () => import('./fr'),
  pt: () => import('./pt'),
  tr: () => import('./tr'),
  uk: () => import('./uk'),
  ar: () => import('./ar'),
};
/** The admin pages' texts of each language, a chunk per group of pages (groups.ts), loaded when a page of the group first opens. */
const LOAD_ADMIN: Record<Other, Record<AdminGroup, () => Promise<{ default: unknown }>>> = {
  ru: {
    team: () => import('./ru/admin.json?team'),
    channels: () => import('./ru/admin.json?channels'),
    settings: () => import('./ru/admin.json?settings'),
    delivery: () => import('./ru/admin.json?delivery'),
    records: () => import('./ru/admin.json?records'),
  },
  es: {
    team: () => import('./es/admin.json?team'),
    channels: () => import('./es/admin.json?channels'),
    settings: () => import('./es/admin.json?settings'),
    delivery: () => import('./es/admin.json?delivery'),
    records: () => import('./es/admin.json?records'),
  },
  de: {
    team: () => import('./de/admin.json?team'),
    channels: () => import('./de/admin.json?channels'),
    settings: () => import('./de/admin.json?settings'),
    delivery: () => import('./de/admin.json?delivery'),
    records: () => import('./de/admin.json?records'),
  },
  fr: {
    team: () => import('./fr/admin.json?team'),
    channels: () => import('./fr/admin.json?channels'),
    settings: () => import('./fr/admin.json?settings'),
    delivery: () => import('./fr/admin.json?delivery'),
    records: () => import('./fr/admin.json?records'),
  },
  pt: {
    team: () => import('./pt/admin.json?team'),
    channels: () => import('./pt/admin.json?channels'),
    settings: () => import('./pt/admin.json?settings'),
    delivery: () => import('./pt/admin.json?delivery'),
    records: () => import('./pt/admin.json?records'),
  },
  tr: {
    team: () => import('./tr/admin.json?team'),
    channels: () => import('./tr/admin.json?channels'),
    settings: () => import('./tr/admin.json?settings'),
    delivery: () => import('./tr/admin.json?delivery'),
    records: () => import('./tr/admin.json?records'),
  },
  uk: {
    team: () => import('./uk/admin.json?team'),
    channels: () => import('./uk/admin.json?channels'),
    settings: () => import('./uk/admin.json?settings'),
    delivery: () => import('./uk/admin.json?delivery'),
    records: () => import('./uk/admin.json?records'),
  },
  ar: {
    team: () => import('./ar/admin.json?team'),
    channels: () => import('./ar/admin.json?channels'),
    settings: () => import('./ar/admin.json?settings'),
    delivery: () => import('./ar/admin.json?delivery'),
    records: () => import('./ar/admin.json?records'),
  },
};
const ADMIN_KEYS = Object.keys(enParts.admin);

/** A language's core texts from its chunk. */
function coreTexts(chunk: Core): Partial<Texts> {
  return Object.assign({}, ...CORE_PARTS.map((p) => decodeTexts(Object.keys(enParts[p]), chunk[p]))) as Partial<Texts>;
}

/** A group of a language's admin texts from its chunk. */
function adminTexts(group: AdminGroup, chunk: { default: unknown }): Partial<Texts> {
  return decodeTexts(groupKeys(ADMIN_KEYS, group), chunk.default);
}
const RTL: readonly AgentLanguage[] = ['ar'];

/** Each language's own name, as the Profile page offers it. */
export const LANGUAGE_NAMES: Record<AgentLanguage, string> = {
  en: 'English',
  ru: 'Русский',
  es: 'Español',
  de: 'Deutsch',
  fr: 'Français',
  pt: 'Português',
  tr: 'Türkçe',
  uk: 'Українська',
  ar: 'العربية',
};

/** The choice last made by an agent in this browser, so the next start (before sign-in) speaks it at once. */
const STORED = 'parley.language';

/** The current language's texts; a key it lacks (the admin part before it loaded, a chunk that failed) reads English. */
let current: Partial<Texts> = en;
let lang: AgentLanguage = 'en';
/** The admin groups whose pages have opened: a language chosen later loads them before it shows. */
const adminWanted = new Set<AdminGroup>();
/** The admin groups of the current language that are loaded (or failed to: English then) into `current`. */
let adminIn = new Set<AdminGroup>();
const listeners = new Set<() => void>();

/** A language the app speaks from a BCP 47 tag (pt-BR → pt), or undefined. */
export function knownLanguage(tag: string | null | undefined): AgentLanguage | undefined {
  if (!tag) return undefined;
  const primary = tag.toLowerCase().split(/[-_]/)[0];
  return AGENT_LANGUAGES.find((l) => l === primary);
}

/** The app's language: the agent's choice, else the first of the browser's languages it speaks, else English. */
export function pickLanguage(chosen: string | null | undefined, browser: readonly string[]): AgentLanguage {
  const own = knownLanguage(chosen);
  if (own) return own;
  for (const l of browser) {
    const k = knownLanguage(l);
    if (k) return k;
  }
  return 'en';
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null;
  }
}

/** Loads the language to start with (main.tsx awaits it before the first render). */
export function startLanguage(): Promise<void> {
  return setLanguage(pickLanguage(stored(), navigator.languages ?? [navigator.language]));
}

/**
 * Follows the signed-in agent's choice (null: the browser's languages) and
 * remembers it in this browser for the next start.
 */
export function followAgentLanguage(chosen: string | null | undefined): Promise<void> {
  try {
    if (knownLanguage(chosen)) localStorage.setItem(STORED, knownLanguage(chosen)!);
    else localStorage.removeItem(STORED);
  } catch {
    // private mode: the choice is still applied, only not remembered
  }
  return setLanguage(pickLanguage(chosen, navigator.languages ?? [navigator.language]));
}

/** Loads a language (English when its chunk cannot be loaded), sets `<html lang dir>` and re-renders the app. */
export async function setLanguage(l: AgentLanguage): Promise<void> {
  if (l === lang && (l === 'en' || current !== en)) {
    // English from the start: the page still says so (lang, and ltr after an rtl language).
    document.documentElement.lang = lang;
    document.documentElement.dir = dir();
    return;
  }
  let texts: Partial<Texts> = en;
  let next: AgentLanguage = 'en';
  let admin = new Set<AdminGroup>();
  if (l !== 'en') {
    try {
      const wanted = ADMIN_GROUPS.filter((g) => adminWanted.has(g));
      const [core, ...groups] = await Promise.all([LOAD[l](), ...wanted.map((g) => LOAD_ADMIN[l][g]().catch(() => null))]);
      texts = coreTexts(core);
      wanted.forEach((g, i) => {
        const chunk = groups[i];
        if (chunk) Object.assign(texts, adminTexts(g, chunk));
      });
      next = l;
      admin = new Set(wanted);
    } catch {
      // the chunk did not load (offline, an old tab after an upgrade): English rather than nothing
    }
  }
  current = texts;
  lang = next;
  adminIn = admin;
  document.documentElement.lang = lang;
  document.documentElement.dir = dir();
  for (const f of listeners) f();
}

const adminLoading = new Map<AdminGroup, Promise<void>>();

/** Loads a group of the current language's admin texts (English for it when its chunk cannot be loaded). */
function loadAdminTexts(group: AdminGroup): Promise<void> {
  const l = lang;
  if (l === 'en' || adminIn.has(group)) return Promise.resolve();
  let loading = adminLoading.get(group);
  if (!loading) {
    loading = LOAD_ADMIN[l][group]()
      .then(
        (chunk) => {
          if (lang === l) current = { ...current, ...adminTexts(group, chunk) };
        },
        () => undefined,
      )
      .finally(() => {
        adminLoading.delete(group);
        if (lang === l) adminIn = new Set([...adminIn, group]);
        for (const f of listeners) f();
      });
    adminLoading.set(group, loading);
  }
  return loading;
}

/**
 * An admin page calls it with its section: true once its group's texts are
 * loaded in the current language (at once for English), false while the
 * chunk loads; the page re-renders when it is in.
 */
export function useAdminTexts(section: AdminSection): boolean {
  const group = SECTION_GROUP[section];
  adminWanted.add(group);
  const ready = useSyncExternalStore(subscribe, () => lang === 'en' || adminIn.has(group));
  if (!ready) void loadAdminTexts(group);
  return ready;
}

function subscribe(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The current language; a component that calls it re-renders when the language changes. */
export function useLanguage(): AgentLanguage {
  return useSyncExternalStore(subscribe, () => lang);
}

export const language = (): AgentLanguage => lang;
export const dir = (): 'rtl' | 'ltr' => (RTL.includes(lang) ? 'rtl' : 'ltr');

type Vars = Record<string, string | number>;

function fill(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => {
    if (!(k in vars)) return m;
    const v = vars[k];
    return typeof v === 'number' ? formatNumber(v) : v;
  });
}

/**
 * Words a component keeps in its state until it shows them (an error, a
 * result): said at render, so a language switched in between says them in the
 * new language. Keep `phrase(() => t('key'))` or `phrase(() => errorText(err))`
 * in state, never the string t() returned.
 */
export interface Phrase {
  readonly say: () => string;
}
export const phrase = (say: () => string): Phrase => ({ say });

/** The current language's text of a key, with `{name}` values put in (numbers formatted for the language). */
export function t(key: TextKey, vars?: Vars): string {
  return fill(current[key] ?? en[key], vars);
}

const rules = new Map<string, Intl.PluralRules>();

/** A plural text: the form Intl.PluralRules picks for `count` in the current language; `{count}` is the formatted count. */
export function tn(key: PluralKey, count: number, vars?: Vars): string {
  const forms: Plural = current[key] ?? en[key];
  let pr = rules.get(lang);
  if (!pr) rules.set(lang, (pr = new Intl.PluralRules(lang)));
  const form = count === 0 && forms.zero !== undefined ? 'zero' : pr.select(count);
  return fill(forms[form] ?? forms.other, { count, ...vars });
}

/** A number for the current language (thousands separators, digits). */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(lang, options).format(n);
}

/** A date and/or time (epoch ms) for the current language. */
export function formatDateTime(ms: number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(lang, options).format(ms);
}

/** "5 minutes ago", "in 2 hours": a relative time for the current language. */
export function formatRelative(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(value, unit);
}

/** A list ("a, b and c") for the current language. */
export function formatList(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
  return new Intl.ListFormat(lang, { style: 'long', type }).format(items);
}
