/** Français: the shared words. */
import type { Translated } from '../en';
import type { common as en } from '../en/common';

export const common: Translated<typeof en> = {
  'common.save': 'Enregistrer',
  'common.saving': 'Enregistrement…',
  'common.saved': 'Enregistré',
  'common.cancel': 'Annuler',
  'common.close': 'Fermer',
  'common.delete': 'Supprimer',
  'common.edit': 'Modifier',
  'common.add': 'Ajouter',
  'common.remove': 'Retirer',
  'common.loading': 'Chargement…',
  'common.retry': 'Réessayer',
  'common.yes': 'Oui',
  'common.no': 'Non',
  'common.back': 'Retour',
  'common.copy': 'Copier',
  'common.copied': 'Copié',
  'common.name': 'Nom',
  'common.email': 'E-mail',
  'common.phone': 'Téléphone',
  'common.password': 'Mot de passe',
  'common.search': 'Rechercher',
  'common.none': 'Aucun',
  'common.minutes': { one: '{count} minute', many: '{count} de minutes', other: '{count} minutes' },
};
