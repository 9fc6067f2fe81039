/** Deutsch: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Speichern',
  'common.saving': 'Wird gespeichert…',
  'common.saved': 'Gespeichert',
  'common.cancel': 'Abbrechen',
  'common.close': 'Schließen',
  'common.delete': 'Löschen',
  'common.edit': 'Bearbeiten',
  'common.add': 'Hinzufügen',
  'common.remove': 'Entfernen',
  'common.loading': 'Wird geladen…',
  'common.retry': 'Erneut versuchen',
  'common.yes': 'Ja',
  'common.no': 'Nein',
  'common.back': 'Zurück',
  'common.copy': 'Kopieren',
  'common.copied': 'Kopiert',
  'common.name': 'Name',
  'common.email': 'E-Mail',
  'common.phone': 'Telefon',
  'common.password': 'Passwort',
  'common.search': 'Suchen',
  'common.none': 'Keine',
  'common.minutes': { one: '{count} Minute', other: '{count} Minuten' },
};
