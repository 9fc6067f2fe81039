/**
 * The widget's own default texts in each of its languages (the frame's translations, web/widget/frame/i18n,
 * one source), for the appearance preview and the fields' placeholders: what the visitor reads when a field
 * is left empty. "auto" (the visitor's browser language) previews this browser's, as the widget would pick it.
 */
import { WIDGET_LANGUAGES, type WidgetAppearance, type WidgetLanguage } from '../../../../../protocol/widget';
import { texts as ar } from '../../../../widget/frame/i18n/ar';
import { texts as de } from '../../../../widget/frame/i18n/de';
import { en } from '../../../../widget/frame/i18n/en';
import { texts as es } from '../../../../widget/frame/i18n/es';
import { texts as fr } from '../../../../widget/frame/i18n/fr';
import { texts as pt } from '../../../../widget/frame/i18n/pt';
import { texts as ru } from '../../../../widget/frame/i18n/ru';
import { texts as tr } from '../../../../widget/frame/i18n/tr';
import { texts as uk } from '../../../../widget/frame/i18n/uk';

const ALL: Record<WidgetLanguage, typeof en> = { en, ar, de, es, fr, pt, ru, tr, uk };

export type PreviewTexts = Pick<typeof en, 'support' | 'online' | 'offline' | 'offlineText' | 'chatWithUs' | 'typeHere'>;

/** The language the widget speaks with this setting, here (auto: the first of this browser's languages it speaks). */
export function previewLanguage(setting: WidgetAppearance['language'], browser: readonly string[] = navigator.languages): WidgetLanguage {
  const known = (l: string): WidgetLanguage | undefined => WIDGET_LANGUAGES.find((x) => x === l.toLowerCase().split('-')[0]);
  if (setting !== 'auto') return known(setting) ?? 'en';
  for (const l of browser) {
    const k = known(l);
    if (k) return k;
  }
  return 'en';
}

export function previewTexts(lang: WidgetLanguage): PreviewTexts {
  const t = ALL[lang] ?? en;
  return { support: t.support, online: t.online, offline: t.offline, offlineText: t.offlineText, chatWithUs: t.chatWithUs, typeHere: t.typeHere };
}
