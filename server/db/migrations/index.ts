/**
 * The ordered list of migrations. Append only: a released migration never changes.
 */
import type { Kysely, Migration } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import * as m001 from './001_initial.js';
import * as m002 from './002_calls.js';
import * as m003 from './003_canned_responses.js';
import * as m004 from './004_hot_path_indexes.js';
import * as m005 from './005_retention.js';
import * as m006 from './006_relay_cursor.js';
import * as m007 from './007_auth_expiry.js';
import * as m008 from './008_sign_in_throttles.js';
import * as m011 from './011_widget_appearance.js';
import * as m012 from './012_mail_accounts.js';
import * as m015 from './015_reports.js';
import * as m015cube from './015_reports_cube.js';
import * as m016 from './016_uploads.js';
import * as m018 from './018_event_selection.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type MigrationModule = { up(db: Kysely<any>, k: ColumnKinds): Promise<void> };

const modules: Record<string, MigrationModule> = {
  '001_initial': m001,
  '002_calls': m002,
  '003_canned_responses': m003,
  '004_hot_path_indexes': m004,
  '005_retention': m005,
  '006_relay_cursor': m006,
  '007_auth_expiry': m007,
  '008_sign_in_throttles': m008,
  '011_widget_appearance': m011,
  '012_mail_accounts': m012,
  '015_reports': m015,
  '015_reports_cube': m015cube,
  '016_uploads': m016,
  '018_event_selection': m018,
};

export function migrationsFor(k: ColumnKinds): Record<string, Migration> {
  return Object.fromEntries(Object.entries(modules).map(([name, m]) => [name, { up: (db) => m.up(db, k) }]));
}
