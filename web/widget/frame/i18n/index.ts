/**
 * The widget's languages: English is in the frame's bundle; each other
 * language is its own small chunk the frame loads at start (with the frame,
 * never with the loader), chosen from the widget's fixed language or the
 * browser's languages. `t` reads the current language's text of a key and
 * puts the `{name}` values in; `dir` is rtl for Arabic.
 */
import { WIDGET_LANGUAGES, type WidgetLanguage } from '../../../../protocol/widget';
import { en, type Texts } from './en';

type Loader = () => Promise<{ texts: Texts }>;
const LOAD: Record<Exclude<WidgetLanguage, 'en'>, Loader> = {
  ru: () => import('./ru'),
  es: () => import('./es'),
  de: () => import('./de'),
  fr: () => import('./fr'),
  pt: () => import('./pt'),
  tr: () => import('./tr'),
  uk: () => import('./uk'),
  ar: () => import('./ar'),
};
const RTL: readonly string[] = ['ar'];

let current: Texts = en;
let loading: Promise<void> = Promise.resolve();

/** Resolves once the language chosen at start is loaded. */
export const languageReady = (): Promise<void> => loading;

/** Starts loading the frame's language (main.tsx, before the session starts). */
export function startLanguage(fixed: string | null | undefined, browser: readonly string[]): void {
  chosen = pickLanguage(fixed, browser);
  loading = loadLanguage(chosen);
}
/** The language chosen at start (known before its texts are loaded): the session tells the server. */
export let chosen: WidgetLanguage = 'en';
export let lang: WidgetLanguage = 'en';

/** The widget's language: a fixed one, else the first of the browser's languages it speaks (pt-BR → pt), else English. */
export function pickLanguage(fixed: string | null | undefined, browser: readonly string[]): WidgetLanguage {
  const known = (l: string): WidgetLanguage | undefined => WIDGET_LANGUAGES.find((x) => x === l.toLowerCase().split('-')[0]);
  if (fixed && fixed !== 'auto') return known(fixed) ?? 'en';
  for (const l of browser) {
    const k = known(l);
    if (k) return k;
  }
  return 'en';
}

/** Loads a language (English when its chunk cannot be loaded) and sets the document's lang and direction. */
export async function loadLanguage(l: WidgetLanguage): Promise<void> {
  try {
    current = l === 'en' ? en : (await LOAD[l]()).texts;
    lang = l;
  } catch {
    current = en;
    lang = 'en';
  }
  document.documentElement.lang = lang;
  document.documentElement.dir = dir();
}

export const dir = (): 'rtl' | 'ltr' => (RTL.includes(lang) ? 'rtl' : 'ltr');

export function t(key: keyof Texts, vars?: Record<string, string | number>): string {
  const text = current[key] ?? en[key];
  return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
}
