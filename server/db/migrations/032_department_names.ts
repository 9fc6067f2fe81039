/**
 * A department's name in the widget's languages (#21: the widget's department
 * choice shows names in the visitor's language): `departments.names_json`, a
 * JSON object language → name (`{"de": "Vertrieb"}`); null or a missing
 * language = the department's `name`. The choice itself is a widget option
 * (`department_choice` in channels.options_json: off, optional, required).
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('departments').addColumn('names_json', 'text').execute();
}
