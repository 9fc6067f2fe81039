/**
 * The Mail page's query: an account's mails (deliveries of kind `mail`),
 * newest first, paged by id (shaped by presenters/mail.ts).
 */
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';

export async function listMails(ctx: AppContext, q: { accountId: number; limit: number; before?: number | null }): Promise<Delivery[]> {
  let query = ctx.db.selectFrom('deliveries').selectAll().where('account_id', '=', q.accountId).where('kind', '=', 'mail');
  if (q.before !== undefined && q.before !== null) query = query.where('id', '<', q.before);
  return query.orderBy('id', 'desc').limit(q.limit).execute();
}
