/**
 * A widget's appearance and language in the channel form: what the visitor
 * reads (title, greeting, away and offline texts, launcher text; empty = the
 * translated default), the launcher's side, offsets and style, the logo and
 * the language, with a live preview of the launcher and the open window, in
 * the chosen language (its default texts, the fields' placeholders too:
 * widgetTexts.ts).
 */
import type { CSSProperties } from 'react';
import { WIDGET_LANGUAGES, type WidgetAppearance } from '../../../../../protocol/widget';
import { previewLanguage, previewTexts, type PreviewTexts } from './widgetTexts';
import { textOn } from '../../../../../protocol/contrast';
import { t } from '../../i18n';
import type { TextKey } from '../../i18n/en';

/** Each language by its own name, what a speaker of it looks for (not translated). */
const OWN_NAMES: Record<string, string> = {
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
/** Arabic's name also says, in the agent's language, that the widget is then laid out right to left. */
const languageName = (l: string): string => (l === 'ar' ? t('admin.appearance.rtl', { name: OWN_NAMES.ar }) : (OWN_NAMES[l] ?? l));

type Field = 'title' | 'greeting' | 'away_text' | 'offline_text' | 'launcher_text';
/** Each text field, its limit, and its placeholder: the widget's default in the chosen language (none for the greeting). */
const TEXTS: [Field, TextKey, number, (w: PreviewTexts) => string][] = [
  ['title', 'admin.appearance.title', 60, (w) => w.support],
  ['greeting', 'admin.appearance.greeting', 500, () => t('admin.appearance.noGreeting')],
  ['away_text', 'admin.appearance.away', 200, (w) => w.offline],
  ['offline_text', 'admin.appearance.offline', 500, (w) => w.offlineText],
  ['launcher_text', 'admin.appearance.launcherText', 40, (w) => w.chatWithUs],
];

const LOGO_EXAMPLE = 'https://example.com/logo.png';

interface Props {
  prefix: string;
  value: WidgetAppearance;
  color: string;
  onChange: (a: WidgetAppearance) => void;
}

export function WidgetAppearanceFields({ prefix, value, color, onChange }: Props) {
  const set = (patch: Partial<WidgetAppearance>) => onChange({ ...value, ...patch });
  const id = (k: string) => `${prefix}-appearance-${k}`;
  const lang = previewLanguage(value.language);
  const texts = previewTexts(lang);
  return (
    <fieldset className="appearance">
      <legend>{t('admin.appearance.legend')}</legend>
      {TEXTS.map(([k, label, max, placeholder]) => (
        <div key={k} className="field">
          <label htmlFor={id(k)}>{t(label)}</label>
          <input
            id={id(k)}
            maxLength={max}
            placeholder={placeholder(texts)}
            dir="auto"
            value={value[k] ?? ''}
            onChange={(e) => set({ [k]: e.target.value || null })}
          />
        </div>
      ))}
      <label htmlFor={id('position')}>{t('admin.appearance.position')}</label>
      <select id={id('position')} value={value.position} onChange={(e) => set({ position: e.target.value === 'left' ? 'left' : 'right' })}>
        <option value="right">{t('admin.appearance.bottomRight')}</option>
        <option value="left">{t('admin.appearance.bottomLeft')}</option>
      </select>
      <label htmlFor={id('offset_x')}>{t('admin.appearance.fromSide')}</label>
      <input id={id('offset_x')} type="number" min={0} max={200} value={value.offset_x} onChange={(e) => set({ offset_x: Number(e.target.value) })} />
      <label htmlFor={id('offset_y')}>{t('admin.appearance.fromBottom')}</label>
      <input id={id('offset_y')} type="number" min={0} max={200} value={value.offset_y} onChange={(e) => set({ offset_y: Number(e.target.value) })} />
      <label htmlFor={id('launcher')}>{t('admin.channel.launcher')}</label>
      <select id={id('launcher')} value={value.launcher} onChange={(e) => set({ launcher: e.target.value === 'button' ? 'button' : 'label' })}>
        <option value="label">{t('admin.appearance.buttonWithText')}</option>
        <option value="button">{t('admin.appearance.roundButton')}</option>
      </select>
      <label htmlFor={id('logo')}>{t('admin.appearance.logo')}</label>
      <input id={id('logo')} type="url" placeholder={LOGO_EXAMPLE} value={value.logo ?? ''} onChange={(e) => set({ logo: e.target.value || null })} />
      <label htmlFor={id('language')}>{t('admin.appearance.language')}</label>
      <select id={id('language')} value={value.language} onChange={(e) => set({ language: e.target.value as WidgetAppearance['language'] })}>
        <option value="auto">{t('admin.appearance.browserLanguage')}</option>
        {WIDGET_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {languageName(l)}
          </option>
        ))}
      </select>
      <Preview value={value} color={color} lang={lang} texts={texts} />
    </fieldset>
  );
}

/** A small picture of the site's corner: the open window above the launcher, as the visitor will see them. */
function Preview({ value, color, lang, texts }: { value: WidgetAppearance; color: string; lang: string; texts: PreviewTexts }) {
  const side = value.position === 'left' ? 'left' : 'right';
  const scale = 0.5;
  const title = value.title ?? texts.support;
  const launcher: CSSProperties = {
    position: 'absolute',
    [side]: value.offset_x * scale,
    bottom: value.offset_y * scale,
    background: color,
    color: textOn(color),
    border: 0,
    borderRadius: value.launcher === 'button' ? '50%' : 16,
    padding: value.launcher === 'button' ? 10 : '6px 12px',
    font: '600 12px system-ui, sans-serif',
    display: 'inline-flex',
  };
  const win: CSSProperties = {
    position: 'absolute',
    [side]: value.offset_x * scale,
    bottom: value.offset_y * scale + 44,
    width: 190,
    background: '#fff',
    borderRadius: 8,
    boxShadow: '0 3px 12px rgba(0,0,0,.25)',
    overflow: 'hidden',
    font: '12px system-ui, sans-serif',
  };
  return (
    <div
      className="widget-preview"
      role="img"
      aria-label={t('admin.appearance.preview')}
      style={{ position: 'relative', height: 280, background: '#f3f5f8', borderRadius: 8 }}
    >
      <div style={win} lang={lang} dir={lang === 'ar' ? 'rtl' : 'ltr'} data-lang={lang}>
        <div style={{ background: color, color: textOn(color), padding: 8, display: 'flex', gap: 8, alignItems: 'center' }}>
          {value.logo?.startsWith('https://') ? (
            <img src={value.logo} alt="" width={24} height={24} style={{ borderRadius: '50%' }} />
          ) : (
            <span aria-hidden="true">{title.slice(0, 1).toUpperCase()}</span>
          )}
          <span>
            <strong>{title}</strong>
            <br />
            <small>{texts.online}</small>
          </span>
        </div>
        {value.greeting && <p style={{ margin: 8, padding: 6, background: '#f3f5f8', borderRadius: 6 }}>{value.greeting}</p>}
        <p style={{ margin: 8, padding: '6px 8px', border: '1px solid #d0d5dd', borderRadius: 6, color: '#667085' }}>{texts.typeHere}</p>
      </div>
      {/* A picture of the launcher, not a control: a button inside role="img" would be an interactive element nested in it. */}
      <span aria-hidden="true" style={launcher}>
        {value.launcher === 'button' ? (
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z" />
          </svg>
        ) : (
          <span lang={lang} dir={lang === 'ar' ? 'rtl' : 'ltr'}>
            {value.launcher_text ?? texts.chatWithUs}
          </span>
        )}
      </span>
    </div>
  );
}
