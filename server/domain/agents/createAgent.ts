/**
 * An admin adds an agent to its account. The e-mail is stored lower-cased and
 * is unique across the service (it is the sign-in name): a duplicate is 409
 * email_taken. The password is hashed; the new agent starts offline. Without
 * a password the agent is invited: it gets a mail with a single-use link
 * (72 h) to choose its own, written in the same transaction.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { mailPasswordLink } from '../auth/mailPasswordLink.js';
import { hashPassword, NO_PASSWORD } from '../auth/passwords.js';
import { assertAdmin, type Actor } from './actor.js';
import { checkPassword, cleanEmail, cleanName, cleanPhone, isUniqueViolation } from './agentInput.js';

export interface CreateAgentInput {
  actor: Actor;
  name: string;
  email: string;
  /** Absent: invite the agent by mail instead. */
  password?: string;
  role: Agent['role'];
  phone?: string | null;
}

export async function createAgent(ctx: AppContext, input: CreateAgentInput): Promise<Agent> {
  assertAdmin(input.actor);
  const name = cleanName(input.name);
  const email = cleanEmail(input.email);
  const phone = cleanPhone(input.phone);
  await assertEmailFree(ctx, email);
  const passwordHash = input.password === undefined ? NO_PASSWORD : await hashPassword(checkPassword(input.password));
  const now = ctx.clock();
  try {
    return await commit(ctx.db, ctx.signals, async (tx) => {
      const agent = await tx
        .insertInto('agents')
        .values({
          account_id: input.actor.account_id,
          name,
          email,
          password_hash: passwordHash,
          role: input.role,
          phone,
          photo_url: null,
          status: 'offline',
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.password === undefined) {
        const by = await tx.selectFrom('agents').select(['name', 'language']).where('id', '=', input.actor.id).executeTakeFirst();
        await mailPasswordLink(tx, ctx, { agent, kind: 'invite', by: by?.name ?? null, byLanguage: by?.language, now, replaces: 'all' });
      }
      return agent;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('email_taken');
    throw err;
  }
}

async function assertEmailFree(ctx: AppContext, email: string): Promise<void> {
  const existing = await ctx.db.selectFrom('agents').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new AppError('email_taken');
}
