/** The language the app picks, and how `t`/`tn` fill texts in, in the language's own formats. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatNumber, knownLanguage, language, pickLanguage, setLanguage, t, tn } from './index';

// setLanguage sets <html lang dir>: a stand-in document is enough for these pure checks.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };
const html = (globalThis as unknown as { document: { documentElement: { lang: string; dir: string } } }).document.documentElement;

describe('agent app language', () => {
  afterEach(() => setLanguage('en'));

  it("picks the agent's choice, else the first browser language the app speaks, else English", () => {
    expect(pickLanguage('de', ['fr-FR'])).toBe('de');
    expect(pickLanguage(null, ['nl-NL', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLanguage('xx', ['ja'])).toBe('en');
    expect(knownLanguage('AR-eg')).toBe('ar');
    expect(knownLanguage('')).toBeUndefined();
  });

  it('loads a language, sets <html lang dir>, and reads its texts; English again afterwards', async () => {
    await setLanguage('ar');
    expect(language()).toBe('ar');
    expect(html).toMatchObject({ lang: 'ar', dir: 'rtl' });
    expect(t('common.save')).toBe('حفظ');
    await setLanguage('de');
    expect(html).toMatchObject({ lang: 'de', dir: 'ltr' });
    expect(t('common.save')).toBe('Speichern');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    await setLanguage('en');
    expect(t('common.save')).toBe('Save');
  });

  it('chooses plural forms by the language rules and formats {count}', async () => {
    expect([1, 2, 1500].map((n) => tn('workspace.offer.minutes', n))).toEqual(['1 minute', '2 minutes', '1,500 minutes']);
    await setLanguage('ru');
    expect([1, 3, 5, 21].map((n) => tn('workspace.offer.minutes', n))).toEqual(['1 минута', '3 минуты', '5 минут', '21 минута']);
    await setLanguage('ar');
    expect([1, 2, 3, 11].map((n) => tn('workspace.offer.minutes', n))).toEqual(['دقيقة واحدة', 'دقيقتان', '3 دقائق', '11 دقيقة']);
  });
});
