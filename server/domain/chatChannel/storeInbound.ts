/**
 * One chat-channel message (or typing) written inside the caller's transaction:
 * visitor upserted with the sender's details, the open chat found or a new one
 * opened, the message stored, and the events for agents (and subscribers such
 * as event webhooks) written to the outbox, by the one rule of a visitor's
 * message (messages/visitorMessage.ts): a blacklisted visitor's messages are
 * stored but never reach agents.
 */
import type { Tx } from '../../db/database.js';
import type { Channel, Visitor } from '../../db/schema.js';
import { recordChatEvent, recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { reachesAgents, writeVisitorMessage } from '../messages/visitorMessage.js';
import { upsertVisitor, type VisitorDetails } from '../visitors/upsertVisitor.js';
import { claimInbound, contentHash, linkInbound, markIdsReused, type DedupKey } from './dedupInbound.js';
import type { InboundRequest } from './parseInbound.js';

export type InboundOutcome = 'stored' | 'duplicate' | 'typing' | 'typing_ignored' | 'suppressed';

export interface InboundJob {
  channel: Channel;
  req: InboundRequest;
  now: number;
}

/** The visitor details a request carries. */
export function senderDetails({ sender }: InboundRequest): VisitorDetails {
  return { name: sender.name, phone: sender.phone, email: sender.email, photo: sender.photo, url: sender.url, invite: sender.invite };
}

/** The idempotency key of a message that carries a message.id, else null. */
export function dedupKeyOf({ channel, req }: InboundJob): DedupKey | null {
  return req.kind === 'message' && req.message.external_id !== null
    ? {
        accountId: channel.account_id,
        channelId: channel.id,
        senderId: req.sender.id,
        messageId: req.message.external_id,
        contentHash: contentHash(req.message),
      }
    : null;
}

/** `absent`: the caller looked for the sender's visitor in this transaction and found none (storeInboundBatch). */
export async function storeInbound(tx: Tx, { channel, req, now }: InboundJob, absent = false): Promise<InboundOutcome> {
  const { sender } = req;
  if (req.kind === 'typing') {
    // "All other fields in such a message are ignored" (the spec): no details written, no visitor made.
    const visitor = absent ? undefined : await findSender(tx, channel.id, sender.id);
    const chat = visitor && reachesAgents(visitor) ? await findOpenChat(tx, visitor.id) : undefined;
    if (!chat) return 'typing_ignored';
    await recordChatEvent(tx, chat, 'typing', { chat_id: chat.id, author: 'visitor', typing: req.typing }, now);
    return 'typing';
  }

  const { visitor, created, contactChanged } = await upsertVisitor(tx, {
    accountId: channel.account_id,
    channelId: channel.id,
    externalId: sender.id,
    externalIdIsNumber: sender.idIsNumber,
    details: senderDetails(req),
    now,
    absent,
  });
  // A sender whose ids were seen with other content has no message identifiers: nothing is dropped by them.
  const dedupKey = visitor.inbound_ids_reused ? null : dedupKeyOf({ channel, req, now });
  if (dedupKey) {
    const claim = await claimInbound(tx, dedupKey, now);
    if (claim === 'retry') return 'duplicate';
    if (claim === 'reused') await markIdsReused(tx, [{ channelId: channel.id, senderId: sender.id }]);
  }

  const page = sender.url && /^https?:/.test(sender.url) ? { url: sender.url } : null;
  const written = await writeVisitorMessage(tx, {
    visitor,
    visitorCreated: created,
    message: req.message,
    now,
    opening: () => ({ page }),
    inChat: async (chat) => {
      if (contactChanged) await recordChatState(tx, chat, 'chat.updated', now, { change: 'visitor_updated' });
    },
  });
  if (dedupKey) await linkInbound(tx, dedupKey, written.message.id);
  return written.suppressed ? 'suppressed' : 'stored';
}

/** The sender's visitor as it is, read without writing anything. */
function findSender(tx: Tx, channelId: number, externalId: string): Promise<Pick<Visitor, 'id' | 'blacklisted'> | undefined> {
  return tx.selectFrom('visitors').select(['id', 'blacklisted']).where('channel_id', '=', channelId).where('external_id', '=', externalId).executeTakeFirst();
}
