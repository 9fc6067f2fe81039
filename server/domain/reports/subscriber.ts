/**
 * The outbox subscriber that keeps the report rollups up to date, inside the
 * relay's transaction (so its writes commit exactly once with the relay's
 * cursor). It reacts to every event that can change what a chat counts:
 * created, updated (accepted, transferred, finished, rated), and an agent's
 * message (the first one is the first response). Visitors' messages are
 * skipped before any work (`wants`), so the chat channel's hot path pays
 * nothing for reports. Each event only notes its chat; `finishBatch` brings
 * the noted chats' shares up to date in a few statements for the whole relay
 * batch (chatContribution.ts), where it was several per event.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { RelayedEvent } from '../../events/catalogue.js';
import type { Subscriber } from '../../events/subscriber.js';
import { refreshChatReports } from './chatContribution.js';

/** The chats noted in the relay transaction in progress (taken by finishBatch). */
const noted = new WeakMap<Tx, Set<number>>();

function isAgentReply(event: RelayedEvent): boolean {
  if (event.type !== 'message.created') return false;
  // Optional chaining: a row written with another payload (an older version's) is not a reply.
  const message: { author?: string; internal?: boolean } | undefined = event.data.message;
  return message?.author === 'agent' && message.internal !== true;
}

export const reportsSubscriber: Subscriber = {
  name: 'reports',
  handles: ['chat.created', 'chat.updated', 'message.created'],
  enqueuesDeliveries: false,
  wants: (event) => event.chat_id !== null && (event.type !== 'message.created' || isAgentReply(event)),
  handle(tx: Tx, event: RelayedEvent, _ctx: AppContext): Promise<void> {
    if (event.chat_id === null) return Promise.resolve();
    let chats = noted.get(tx);
    if (!chats) noted.set(tx, (chats = new Set()));
    chats.add(event.chat_id);
    return Promise.resolve();
  },
  async finishBatch(tx: Tx): Promise<void> {
    const chats = noted.get(tx);
    noted.delete(tx);
    if (chats) await refreshChatReports(tx, [...chats]);
  },
};
