/** The days of the week by their name in the agent's language (Intl), for the admin's hours forms. */
import { language } from '../../i18n';

const ORDER = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** "Monday", "Montag", "الاثنين": 1 January 2024 was a Monday. */
export function weekdayName(day: (typeof ORDER)[number]): string {
  return new Intl.DateTimeFormat(language(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + ORDER.indexOf(day)));
}
