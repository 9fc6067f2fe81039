/**
 * Agents belong to departments (issue #19: an admin edits an agent's name,
 * role and departments): one row per (agent, department), many to many.
 * Deleting a department or an agent deletes its rows (ON DELETE CASCADE;
 * deleteDepartment also deletes them itself, so the rule holds whatever the
 * store's foreign-key setting).
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('agent_departments')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('agent_departments_pk', ['agent_id', 'department_id'])
    .execute();
  // A department's agents (and the cascade from a deleted department) by this index.
  await db.schema.createIndex('agent_departments_department').on('agent_departments').column('department_id').execute();
}
