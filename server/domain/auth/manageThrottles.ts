/**
 * What an administrator sees and clears of sign-in throttling (throttles.ts):
 * the pairs naming an agent of its account, and the source addresses those
 * pairs came from (a source row also counts failures against other accounts'
 * e-mails, but never says which). Rows past `expires_at` mean nothing and are
 * not shown. Clearing deletes the row: the pair or address starts afresh.
 */
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SignInThrottle } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

function visible(db: Executor, accountId: number, now: number) {
  return db
    .selectFrom('sign_in_throttles')
    .selectAll()
    .where('expires_at', '>', now)
    .where('kind', 'in', ['pair', 'source'])
    .where((eb) =>
      eb.or([
        eb('account_id', '=', accountId),
        eb.and([
          eb('kind', '=', 'source'),
          eb(
            'address',
            'in',
            eb.selectFrom('sign_in_throttles as p').select('p.address').where('p.account_id', '=', accountId).where('p.expires_at', '>', now),
          ),
        ]),
      ]),
    );
}

export async function listThrottles(ctx: AppContext, input: { actor: Actor; limit: number; before: number | null }): Promise<SignInThrottle[]> {
  assertAdmin(input.actor);
  return visible(ctx.db, input.actor.account_id, ctx.clock())
    .$if(input.before !== null, (q) => q.where('id', '<', input.before ?? 0))
    .orderBy('id', 'desc')
    .limit(input.limit)
    .execute();
}

export async function clearThrottle(ctx: AppContext, input: { actor: Actor; id: number }): Promise<void> {
  assertAdmin(input.actor);
  await inTransaction(ctx.db, async (tx) => {
    const row = await visible(tx, input.actor.account_id, ctx.clock()).where('id', '=', input.id).executeTakeFirst();
    if (!row) throw notFound(`Sign-in throttle ${input.id}`);
    await tx.deleteFrom('sign_in_throttles').where('id', '=', row.id).execute();
  });
}
