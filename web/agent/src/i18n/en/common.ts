/** Words many parts of the app share (buttons, states). */
import type { Plural } from './index';

export const common = {
  'common.save': 'Save',
  'common.saving': 'Saving…',
  'common.saved': 'Saved',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.delete': 'Delete',
  'common.edit': 'Edit',
  'common.add': 'Add',
  'common.remove': 'Remove',
  'common.loading': 'Loading…',
  'common.retry': 'Try again',
  'common.yes': 'Yes',
  'common.no': 'No',
  'common.back': 'Back',
  'common.copy': 'Copy',
  'common.copied': 'Copied',
  'common.name': 'Name',
  'common.email': 'E-mail',
  'common.phone': 'Phone',
  'common.password': 'Password',
  'common.search': 'Search',
  'common.none': 'None',
  'common.minutes': { one: '{count} minute', other: '{count} minutes' } as Plural,
};
