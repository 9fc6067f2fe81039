/**
 * Working hours for chat (#21): the account's hours (`settings.chat_hours_json`)
 * and a department's own (`departments.hours_json`), both JSON of
 * domain/workingHours/hours.ts's WorkingHours, null = always open.
 *
 * `working_hours_clock` holds, per account (`department_id` 0) and per
 * department with hours, whether it was last said to be open and when that
 * changes next. The hours worker (domain/workingHours/hoursWorker.ts) finds
 * the rows whose `changes_at` has passed and moves each with a compare-and-set
 * UPDATE (… WHERE changes_at = <the value read>): of several instances only one
 * wins and records the `working_hours.changed` event, so widgets hear of an
 * opening once, whichever instance is alive at that minute.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('settings').addColumn('chat_hours_json', 'text').execute();
  await db.schema.alterTable('departments').addColumn('hours_json', 'text').execute();
  await db.schema
    .createTable('working_hours_clock')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('department_id', 'integer', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('changes_at', k.time)
    .addPrimaryKeyConstraint('working_hours_clock_pk', ['account_id', 'department_id'])
    .execute();
  // The worker's scan: the next change due, soonest first.
  await db.schema.createIndex('working_hours_clock_due').on('working_hours_clock').column('changes_at').where(sql.ref('changes_at'), 'is not', null).execute();
}
