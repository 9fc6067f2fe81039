/** Counted words in mails by each language's plural rules (plural.ts), in every language mails are written in. */
import { describe, expect, it } from 'vitest';
import { WIDGET_LANGUAGES } from '../../../protocol/widget.js';
import { minutesText, plural } from './plural.js';

describe('minutesText', () => {
  it('says 1 minute, never "1 minutes", in English', () => {
    expect([0, 1, 2, 5, 21].map((n) => minutesText(n))).toEqual(['0 minutes', '1 minute', '2 minutes', '5 minutes', '21 minutes']);
  });

  it("follows each of the widget's languages' rules", () => {
    expect([1, 2, 5, 11, 21, 22, 25].map((n) => minutesText(n, 'ru'))).toEqual([
      '1 минуту',
      '2 минуты',
      '5 минут',
      '11 минут',
      '21 минуту',
      '22 минуты',
      '25 минут',
    ]);
    expect([1, 3, 5, 21].map((n) => minutesText(n, 'uk'))).toEqual(['1 хвилину', '3 хвилини', '5 хвилин', '21 хвилину']);
    expect([0, 1, 2, 3, 11, 100].map((n) => minutesText(n, 'ar'))).toEqual(['0 دقيقة', 'دقيقة واحدة', 'دقيقتان', '3 دقائق', '11 دقيقة', '100 دقيقة']);
    expect([0, 1, 2].map((n) => minutesText(n, 'fr'))).toEqual(['0 minute', '1 minute', '2 minutes']);
    expect([1, 2].map((n) => minutesText(n, 'de'))).toEqual(['1 Minute', '2 Minuten']);
    expect([1, 2].map((n) => minutesText(n, 'es'))).toEqual(['1 minuto', '2 minutos']);
    expect([1, 2].map((n) => minutesText(n, 'pt'))).toEqual(['1 minuto', '2 minutos']);
    expect([1, 2].map((n) => minutesText(n, 'tr'))).toEqual(['1 dakika', '2 dakika']);
    // Every language names the forms its rules select.
    for (const lang of WIDGET_LANGUAGES) for (const n of [0, 1, 2, 3, 5, 11, 21, 100, 1000000]) expect(minutesText(n, lang), `${lang} ${n}`).toMatch(/\S/);
  });

  it('falls back to English for a language mails are not written in', () => {
    expect(minutesText(1, 'xx')).toBe('1 minute');
    expect(plural('not a tag!', 2, { one: '{n} item', other: '{n} items' })).toBe('2 items');
  });
});
