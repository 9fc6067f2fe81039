/**
 * A person's visitor records, for a request of access or erasure (GET
 * /api/v1/visitors?email=…, administrators; docs/DATA.md "Export"): by e-mail
 * (any case), phone (digits alike whatever the separators: "+49 30 1234-5678"
 * finds "+493012345678"), the widget's user token, or a chat channel's
 * sender id within its channel. A person may be several visitors (one per
 * channel, or one per browser): all are listed, newest first, up to 100.
 * The columns have no index: this reads the account's visitors, which is
 * what a request made by hand a few times a month can afford.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';

export interface VisitorQuery {
  email?: string;
  phone?: string;
  user_token?: string;
  channel_id?: number;
  sender_id?: string;
}

export const FOUND_VISITORS_LIMIT = 100;

/** The digits of a phone number; "+", spaces, dashes, dots and parentheses dropped. */
export function phoneDigits(phone: string): string {
  return phone.replace(/[^0-9]/g, '');
}

const SEPARATORS = [' ', '-', '.', '(', ')', '+'];

export async function findVisitors(ctx: AppContext, accountId: number, query: VisitorQuery): Promise<Visitor[]> {
  const email = query.email?.trim();
  const phone = query.phone !== undefined ? phoneDigits(query.phone) : undefined;
  const userToken = query.user_token?.trim();
  const senderId = query.sender_id?.trim();
  if (query.sender_id !== undefined && query.channel_id === undefined)
    throw invalid('sender_id needs channel_id: a sender id is only unique within its chat channel.');
  if (query.phone !== undefined && (phone === undefined || phone.length < 4)) throw invalid('phone needs at least 4 digits.');
  if (!email && phone === undefined && !userToken && query.channel_id === undefined) {
    throw invalid('Say whom to find: email, phone, user_token, or channel_id with sender_id.');
  }
  let q = ctx.db.selectFrom('visitors').selectAll().where('account_id', '=', accountId);
  if (email) q = q.where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (phone !== undefined) {
    const stripped = SEPARATORS.reduce((column, ch) => sql`replace(${column}, ${ch}, '')`, sql`phone`);
    q = q.where(sql<string>`${stripped}`, '=', phone);
  }
  if (userToken) q = q.where('user_token', '=', userToken);
  if (query.channel_id !== undefined) q = q.where('channel_id', '=', query.channel_id);
  if (senderId) q = q.where('external_id', '=', senderId);
  return q.orderBy('id', 'desc').limit(FOUND_VISITORS_LIMIT).execute();
}
