/**
 * Counted words in mails ("1 minute", "5 minutes", "5 минут"), by each
 * language's plural rules (Intl.PluralRules), in every language mails are
 * written in: the agent app's languages for the mails to agents and
 * notification addresses (agentTexts/), the widget's (the same nine) for the
 * visitor's mails (visitorTexts.ts). A form a language does
 * not name falls back to its `other`.
 */
import type { WidgetLanguage } from '../../../protocol/widget.js';

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** `{n}` in the form `n` takes in `lang`, with n written in that language's digits style (the widget's languages write Latin digits). */
export function plural(lang: string, n: number, forms: PluralForms): string {
  let rule: Intl.LDMLPluralRule;
  try {
    rule = new Intl.PluralRules(lang).select(n);
  } catch {
    rule = new Intl.PluralRules('en').select(n);
  }
  return (forms[rule] ?? forms.other).replace('{n}', String(n));
}

const MINUTES: Record<WidgetLanguage, PluralForms> = {
  en: { one: '{n} minute', other: '{n} minutes' },
  ru: { one: '{n} минуту', few: '{n} минуты', many: '{n} минут', other: '{n} минуты' },
  uk: { one: '{n} хвилину', few: '{n} хвилини', many: '{n} хвилин', other: '{n} хвилини' },
  es: { one: '{n} minuto', many: '{n} de minutos', other: '{n} minutos' },
  de: { one: '{n} Minute', other: '{n} Minuten' },
  fr: { one: '{n} minute', many: '{n} de minutes', other: '{n} minutes' },
  pt: { one: '{n} minuto', many: '{n} de minutos', other: '{n} minutos' },
  tr: { one: '{n} dakika', other: '{n} dakika' },
  ar: { zero: '{n} دقيقة', one: 'دقيقة واحدة', two: 'دقيقتان', few: '{n} دقائق', many: '{n} دقيقة', other: '{n} دقيقة' },
};

/** "1 minute", "2 minutes", "5 Minuten"; in any of the nine languages (English for any other). */
export function minutesText(n: number, lang: string = 'en'): string {
  const forms = MINUTES[lang as WidgetLanguage] ?? MINUTES.en;
  return plural(lang in MINUTES ? lang : 'en', n, forms);
}
