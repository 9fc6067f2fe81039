/** An admin adds a department (a named group chats can be routed to) to its account. */
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DepartmentsTable } from '../../db/schema.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { cleanName } from '../agents/agentInput.js';

export type Department = Selectable<DepartmentsTable>;

export async function createDepartment(ctx: AppContext, input: { actor: Actor; name: string }): Promise<Department> {
  assertAdmin(input.actor);
  const name = cleanName(input.name);
  return ctx.db
    .insertInto('departments')
    .values({ account_id: input.actor.account_id, name, created_at: ctx.clock() })
    .returningAll()
    .executeTakeFirstOrThrow();
}
