/**
 * Departments that mean something (#21): agents belong to departments, many
 * to many. A row per membership; deleting the agent or the department deletes
 * its rows (the agents of a department are read by department, the
 * departments of an agent by agent: one index each way).
 */
import type { Kysely } from 'kysely';
import type { ColumnKinds } from '../columns.js';

// Migrations must not depend on the app's evolving types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('department_agents')
    .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('department_agents_pk', ['department_id', 'agent_id'])
    .execute();
  await db.schema.createIndex('department_agents_agent').on('department_agents').column('agent_id').execute();
}
