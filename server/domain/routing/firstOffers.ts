/**
 * The first offers of new chats without a department opened together (a
 * group-commit batch's new senders: chatChannel/newSenders.ts), made as
 * startRouting (offerChat.ts) makes them one chat after the other: each chat's
 * agent picked in the order given, by the same query, stamped the same way.
 *
 * The picks come first: the chats are inserted after them (a chat is inserted
 * with its sequence number moved past its events, and whether it has a
 * chat.offered event depends on the pick), and the offers after the chats
 * (they name the chats). So a pick cannot see the offers picked before it in
 * the batch as chat_offers rows; it is told them instead (pickAgent's
 * `pending`), and counts them as chats held, as startRouting's later picks
 * count the rows of its earlier ones. On PostgreSQL the routed accounts' rows
 * are locked first (lockAccounts). One pick statement per chat of a routed
 * account, one insert for every offer of the batch.
 */
import { isPostgres, type Tx } from '../../db/database.js';
import type { Chat, ChatOffer } from '../../db/schema.js';
import type { EventPayloads } from '../../events/catalogue.js';
import { isOffering } from './modes.js';
import { nextOffer, type NextOffer } from './nextOffer.js';
import { firstOfferRow, offeredPayload } from './offerChat.js';
import type { AccountRouting } from './routingConfig.js';

/** A new chat to route: its account and channel, and when it opens. */
export interface NewChatToRoute {
  account_id: number;
  channel_id: number;
  now: number;
}

/** The first routing step of a new chat, picked before the chat is inserted. */
export interface FirstOffer {
  next: NextOffer;
  now: number;
}

/** Each chat's first step, in the order given; null for a chat of an account that routes manually (offered to nobody). */
export async function pickFirstOffers(tx: Tx, chats: NewChatToRoute[], routings: ReadonlyMap<number, AccountRouting>): Promise<Array<FirstOffer | null>> {
  const routed = [...new Set(chats.map((c) => c.account_id))].filter((id) => isOffering(routings.get(id)?.mode ?? 'manual'));
  if (routed.length > 0 && isPostgres(tx)) await lockAccounts(tx, routed);
  const pending: number[] = [];
  const firsts: Array<FirstOffer | null> = [];
  for (const chat of chats) {
    const routing = routings.get(chat.account_id);
    if (!routing || !isOffering(routing.mode)) {
      firsts.push(null);
      continue;
    }
    // A chat without a department: everyone's turn from the start (startRouting's everyone_at = now).
    const next = await nextOffer(
      tx,
      { ...chat, department_id: null },
      { ...routing, department_mode: routing.mode },
      { everyoneAt: chat.now, tried: [], current: null, now: chat.now, pending: [...pending] },
    );
    if (next?.agentId != null) pending.push(next.agentId);
    firsts.push(next && { next, now: chat.now });
  }
  return firsts;
}

/**
 * PostgreSQL: the accounts' rows locked before the picks, as a chat opened alone
 * has them (its visitor's number is taken before its pick). Each pick keeps the
 * agent it stamps locked until the commit, and a pick skips the agents another
 * transaction holds (pickAgent's SKIP LOCKED): two instances' batches picking
 * at once could each hold every agent the other would pick, and offer their
 * chats to nobody. Locked, they pick one batch after the other. The same lock
 * the visitor numbers take next (newSenders.ts), in the same order (by id).
 */
async function lockAccounts(tx: Tx, accountIds: number[]): Promise<void> {
  await tx.selectFrom('accounts').select('id').where('id', 'in', accountIds).orderBy('id').forNoKeyUpdate().execute();
}

/** Whether the first step writes a chat.offered event (an agent was picked). */
export function isOffered(first: FirstOffer | null): boolean {
  return first?.next.agentId != null;
}

/** The chat.offered payload of a chat's first step (null: no event). */
export function firstOfferedPayload(chatId: number, first: FirstOffer): EventPayloads['chat.offered'] | null {
  return offeredPayload(chatId, { attempt: 1, expires_at: first.next.expiresAt }, first.next, null);
}

/** The chat_offers rows of the inserted chats, in one statement. */
export async function insertFirstOffers(tx: Tx, offers: Array<{ chat: Pick<Chat, 'id' | 'account_id' | 'department_id'>; first: FirstOffer }>): Promise<void> {
  if (offers.length === 0) return;
  const rows: ChatOffer[] = offers.map(({ chat, first }) => firstOfferRow(chat, first.next, first.now, first.now));
  await tx.insertInto('chat_offers').values(rows).execute();
}
