/**
 * Routing a pending chat (docs/ROUTING.md), inside the caller's transaction:
 * startRouting when a chat is created or transferred to a department (a
 * chat_offers row when its mode offers it, nothing for manual), moveOffer when
 * an offer ran out (the routing worker) or was declined. Each offer to an
 * agent is a `chat.offered` event on the agents' stream. `attempt` counts the
 * offers made (a wait while nobody is eligible takes no number), and
 * `previous_agent_id` keeps the agent whose offer last ran out through such
 * a wait, so the offer after it names that agent. Every move is a
 * compare-and-set on the row's `attempt` and `expires_at` (a move always puts
 * `expires_at` past the time it was due): of two instances moving the same
 * offer one updates the row and records the event, the other changes nothing.
 * The chat stays pending (in everyone's Waiting queue) while it is offered.
 */
import type { Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Chat, ChatOffer } from '../../db/schema.js';
import type { EventPayloads } from '../../events/catalogue.js';
import { parseJson, toJson } from '../../lib/json.js';
import { recordChatEvent } from '../chats/chatEvents.js';
import { nextOffer, type NextOffer } from './nextOffer.js';
import { chatRouting } from './routingConfig.js';

// Written in the transaction of every routed new chat: built once (db/prepared.ts).
const insertOffer = prepared<ChatOffer, ChatOffer>(
  ['chat_id', 'account_id', 'department_id', 'agent_id', 'attempt', 'expires_at', 'everyone_at', 'tried_json', 'created_at', 'previous_agent_id'],
  (db, row) => db.insertInto('chat_offers').values(row).returningAll(),
);

/** Starts routing a pending chat; null when its mode is manual (the chat only waits in the queue). */
export async function startRouting(tx: Tx, chat: Chat, now: number): Promise<ChatOffer | null> {
  const routing = await chatRouting(tx, chat.account_id, chat.department_id);
  if (routing.mode === 'manual' && (chat.department_id === null || routing.department_mode === 'manual')) return null;
  const everyoneAt = chat.department_id === null ? now : routing.everyone_after_seconds === null ? null : now + routing.everyone_after_seconds * 1000;
  const next = await nextOffer(tx, chat, routing, { everyoneAt, tried: [], current: null, now });
  if (!next) return null;
  const offer = await insertOffer.only(tx, firstOfferRow(chat, next, everyoneAt, now));
  await recordOffer(tx, chat, offer, next, null, now);
  return offer;
}

/** A chat's first chat_offers row: to `next`'s agent (attempt 1), or to nobody yet (attempt 0, looked at again at its expiry). */
export function firstOfferRow(chat: Pick<Chat, 'id' | 'account_id' | 'department_id'>, next: NextOffer, everyoneAt: number | null, now: number): ChatOffer {
  return {
    chat_id: chat.id,
    account_id: chat.account_id,
    department_id: chat.department_id,
    agent_id: next.agentId,
    attempt: next.agentId === null ? 0 : 1,
    expires_at: next.expiresAt,
    everyone_at: everyoneAt,
    tried_json: toJson(next.tried),
    created_at: now,
    previous_agent_id: null,
  };
}

/** Stops routing the chat (accepted, or transferred and routed anew). */
export async function stopRouting(tx: Tx, chatId: number): Promise<void> {
  await tx.deleteFrom('chat_offers').where('chat_id', '=', chatId).execute();
}

/**
 * Moves an offer read as `offer` on: to the next agent, or away when the chat
 * no longer waits. False when the row changed meanwhile (another instance
 * moved it, or an agent accepted): nothing was done.
 */
export async function moveOffer(tx: Tx, offer: ChatOffer, now: number): Promise<boolean> {
  const chat = await tx.selectFrom('chats').selectAll().where('id', '=', offer.chat_id).executeTakeFirst();
  const routing = chat && chat.status === 'pending' ? await chatRouting(tx, chat.account_id, chat.department_id) : null;
  const next =
    chat && routing
      ? await nextOffer(tx, chat, routing, { everyoneAt: offer.everyone_at, tried: parseJson<number[]>(offer.tried_json, []), current: offer.agent_id, now })
      : null;
  if (!chat || !next) {
    const gone = await tx
      .deleteFrom('chat_offers')
      .where('chat_id', '=', offer.chat_id)
      .where('attempt', '=', offer.attempt)
      .where('expires_at', '=', offer.expires_at)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) === 1;
  }
  // The agent whose offer ran out now, or (after a wait for nobody) the one whose offer ran out before it.
  const previous = offer.agent_id ?? offer.previous_agent_id;
  const attempt = next.agentId === null ? offer.attempt : offer.attempt + 1;
  const moved = await tx
    .updateTable('chat_offers')
    .set({ agent_id: next.agentId, attempt, expires_at: next.expiresAt, tried_json: toJson(next.tried), previous_agent_id: previous })
    .where('chat_id', '=', offer.chat_id)
    .where('attempt', '=', offer.attempt)
    .where('expires_at', '=', offer.expires_at)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await recordOffer(tx, chat, { ...offer, attempt, expires_at: next.expiresAt }, next, previous, now);
  return true;
}

async function recordOffer(tx: Tx, chat: Chat, offer: ChatOffer, next: NextOffer, previous: number | null, now: number): Promise<void> {
  const payload = offeredPayload(chat.id, offer, next, previous);
  if (payload) await recordChatEvent(tx, chat, 'chat.offered', payload, now);
}

/** The chat.offered event of an offer to an agent; null when nobody was offered it (no event). */
export function offeredPayload(
  chatId: number,
  offer: Pick<ChatOffer, 'attempt' | 'expires_at'>,
  next: NextOffer,
  previous: number | null,
): EventPayloads['chat.offered'] | null {
  if (next.agentId === null || next.mode === null) return null;
  return {
    chat_id: chatId,
    agent_id: next.agentId,
    attempt: offer.attempt,
    expires_at: offer.expires_at,
    department_id: next.departmentId,
    mode: next.mode,
    previous_agent_id: previous,
  };
}
