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
import { useSyncExternalStore } from 'react';
import { AGENT_LANGUAGES, type AgentLanguage } from '../../../../protocol/agent';
import { en, type AdminTexts, type CoreTexts, type PluralKey, type TextKey, type Texts, type Plural } from './en';

export type { AgentLanguage };
export { AGENT_LANGUAGES };

type Loader = () => Promise<{ texts: CoreTexts }>;
const LOAD: Record<Exclude<AgentLanguage, 'en'>, Loader> = {
  ru: () => import('./ru'),
  es: () => import('./es'),
  de: () => import('./de'),
  fr: () => import('./fr'),
  pt: () => import('./pt'),
  tr: () => import('./tr'),
  uk: () => import('./uk'),
  ar: () => import('./ar'),
};
/** The admin pages' texts of each language: a chunk of its own, loaded when an admin page first opens (useAdminTexts). */
const LOAD_ADMIN: Record<Exclude<AgentLanguage, 'en'>, () => Promise<{ admin: AdminTexts }>> = {
  ru: () => import('./ru/admin'),
  es: () => import('./es/admin'),
  de: () => import('./de/admin'),
  fr: () => import('./fr/admin'),
  pt: () => import('./pt/admin'),
  tr: () => import('./tr/admin'),
  uk: () => import('./uk/admin'),
  ar: () => import('./ar/admin'),
};
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
/** Set once an admin page has opened: a language chosen later loads its admin part before it shows. */
let adminWanted = false;
/** The languages whose admin part is in `current`. */
let adminIn: AgentLanguage | null = 'en';
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
  let admin: AgentLanguage | null = 'en';
  if (l !== 'en') {
    try {
      const [core, adminPart] = await Promise.all([LOAD[l](), adminWanted ? LOAD_ADMIN[l]().catch(() => null) : null]);
      texts = { ...core.texts, ...adminPart?.admin };
      next = l;
      admin = adminPart ? l : null;
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

let adminLoading: Promise<void> | null = null;

/** Loads the current language's admin part into the texts (English for it when its chunk cannot be loaded). */
function loadAdminTexts(): Promise<void> {
  const l = lang;
  if (l === 'en' || adminIn === l) return Promise.resolve();
  adminLoading ??= LOAD_ADMIN[l]()
    .then(
      (part) => {
        if (lang === l) current = { ...current, ...part.admin };
      },
      () => undefined,
    )
    .finally(() => {
      adminLoading = null;
      if (lang === l) adminIn = l;
      for (const f of listeners) f();
    });
  return adminLoading;
}

/**
 * The admin pages call it: true once their texts are loaded in the current
 * language (at once for English), false while the chunk loads; the page
 * re-renders when it is in.
 */
export function useAdminTexts(): boolean {
  adminWanted = true;
  const ready = useSyncExternalStore(subscribe, () => adminIn === lang);
  if (!ready) void loadAdminTexts();
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
