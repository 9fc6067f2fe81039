/**
 * A department's name in the widget's languages (#21: the widget's department
 * choice shows names in the visitor's language): `departments.names_json`, a
 * JSON object language → name (`{"de": "Vertrieb"}`); null or a missing
 * language = the department's `name`. The choice itself is a widget option
 * (`department_choice` in channels.options_json: off, optional, required).
 */
import type { Kysely } from 'kysely';
import type { ColumnKinds } from '../columns.js';

// Migrations must not depend on the app's evolving types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('departments').addColumn('names_json', 'text').execute();
}
