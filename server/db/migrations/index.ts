/**
 * The ordered list of migrations. Append only: a released migration never changes.
 *
 * Expand, then contract (docs/DEPLOY.md, "Upgrading"): while instances of the previous
 * release still run beside the new one on PostgreSQL, a migration only adds what the old
 * code tolerates (tables, nullable columns or columns with a default, indexes) and keeps
 * every column, key and constraint the old code reads or names (an ON CONFLICT target,
 * say); dropping or renaming one waits for a later release. A migration that cannot
 * says "Not a rolling upgrade from <version>" in CHANGELOG.md. test/upgrade/ checks both
 * data from every earlier level and the previous release beside this one.
 */
import type { Migration } from 'kysely';
import type { AnyDb } from './anyDb.js';
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
import * as m017 from './017_event_webhook_given_up.js';
import * as m018 from './018_event_selection.js';
import * as m019photos from './019_agent_photos.js';
import * as m019 from './019_inbound_dedup_content.js';
import * as m020 from './020_widget_contact.js';
import * as m022 from './022_agent_departments.js';
import * as m023 from './023_reports_daily.js';
import * as m024 from './024_working_hours.js';
import * as m026otp from './026_one_time_password.js';
import * as m026status from './026_status_ends.js';
import * as m027 from './027_chat_reads.js';
import * as m028 from './028_search.js';
import * as m029 from './029_agent_presence.js';
import * as m031 from './031_routing.js';
import * as m032 from './032_department_names.js';
import * as m034 from './034_search_filters.js';
import * as m043 from './043_search_chat_order.js';
import * as m044 from './044_deployment.js';
import * as m045 from './045_transcript_mails.js';
import * as m046links from './046_password_link_binding.js';
import * as m047uploads from './047_upload_quotas.js';
import * as m049 from './049_idle_visitors.js';
import * as m050 from './050_inbound_dedup_retry.js';
import * as m051 from './051_backup_runs.js';
import * as m052 from './052_offers_and_missed.js';
import * as m054 from './054_erasures.js';
import * as m056 from './056_chat_retention.js';
import * as m057 from './057_audit_log.js';
import * as m058 from './058_email_changes.js';
import * as m059 from './059_web_push.js';
import * as m061 from './061_offline_handled.js';
import * as m062 from './062_agent_language.js';
import * as m063 from './063_legacy_delivery_visitors.js';

type MigrationModule = { up(db: AnyDb, k: ColumnKinds): Promise<void> };

/** In the order they run: Kysely runs pending migrations sorted by name. */
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
  '017_event_webhook_given_up': m017,
  '018_event_selection': m018,
  '019_agent_photos': m019photos,
  '019_inbound_dedup_content': m019,
  '020_widget_contact': m020,
  '022_agent_departments': m022,
  '023_reports_daily': m023,
  '024_working_hours': m024,
  '026_one_time_password': m026otp,
  '026_status_ends': m026status,
  '027_chat_reads': m027,
  '028_search': m028,
  '029_agent_presence': m029,
  '031_routing': m031,
  '032_department_names': m032,
  '034_search_filters': m034,
  '043_search_chat_order': m043,
  '044_deployment': m044,
  '045_transcript_mails': m045,
  '046_password_link_binding': m046links,
  '047_upload_quotas': m047uploads,
  '049_idle_visitors': m049,
  '050_inbound_dedup_retry': m050,
  '051_backup_runs': m051,
  '052_offers_and_missed': m052,
  '054_erasures': m054,
  '056_chat_retention': m056,
  '057_audit_log': m057,
  '058_email_changes': m058,
  '059_web_push': m059,
  '061_offline_handled': m061,
  '062_agent_language': m062,
  '063_legacy_delivery_visitors': m063,
};

export function migrationsFor(k: ColumnKinds): Record<string, Migration> {
  return Object.fromEntries(Object.entries(modules).map(([name, m]) => [name, { up: (db) => m.up(db, k) }]));
}

/** The names of every migration this Parley has (a backup's migration level is checked against them). */
export function migrationNames(): string[] {
  return Object.keys(modules);
}
