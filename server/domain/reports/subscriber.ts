/**
 * The outbox subscriber that keeps the report rollups up to date, inside the
 * relay's transaction (so its writes commit exactly once with the relay's
 * cursor). It reacts to every event that can change what a chat counts:
 * created, updated (accepted, transferred, finished, rated), and an agent's
 * message (the first one is the first response). Visitors' messages are
 * skipped before any work (`wants`), so the chat channel's hot path pays
 * nothing for reports.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { RelayedEvent } from '../../events/catalogue.js';
import type { Subscriber } from '../../events/subscriber.js';
import { refreshChatReport } from './chatContribution.js';

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
  async handle(tx: Tx, event: RelayedEvent, _ctx: AppContext): Promise<void> {
    if (event.chat_id !== null) await refreshChatReport(tx, event.chat_id);
  },
};
