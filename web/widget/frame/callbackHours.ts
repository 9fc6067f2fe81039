/**
 * The callback hours (settings.callback_hours) as a visitor reads them, in the widget's language:
 * days with the same ranges grouped ("Mon–Fri 09:00–17:00; Sat 10:00–12:00"), closed days left out,
 * "" when there are no hours to say (always open, or no day open).
 */
import type { WidgetSettings } from '../../../protocol/widget';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function formatCallbackHours(h: WidgetSettings['callback_hours'] | null, lang: string): string {
  if (!h?.hours) return '';
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: 'UTC' });
  } catch {
    fmt = new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' });
  }
  // 1 January 2024 was a Monday.
  const name = (i: number): string => fmt.format(new Date(Date.UTC(2024, 0, 1 + i)));
  const text = DAYS.map((d) => (h.hours?.[d] ?? []).map((r) => `${r[0]}–${r[1]}`).join(', '));
  const groups: string[] = [];
  for (let i = 0; i < 7;) {
    let j = i;
    while (j + 1 < 7 && text[j + 1] === text[i]) j++;
    if (text[i]) groups.push(`${j > i ? `${name(i)}–${name(j)}` : name(i)} ${text[i]}`);
    i = j + 1;
  }
  return groups.join('; ');
}
