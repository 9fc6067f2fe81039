/**
 * A customer system POSTs a visitor message (or typing) to the chat channel.
 * Per message: visitor upserted with the sender's details, the open chat found
 * or a new one opened, the message stored, and the events for agents (and
 * subscribers such as event webhooks) written to the outbox. The messages that
 * arrive together are written in one transaction (db/groupCommit.ts), one
 * after the other; each request is answered after that transaction commits.
 * A blacklisted visitor's messages are stored but never reach agents.
 */
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { GroupCommit } from '../../db/groupCommit.js';
import type { Channel } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { recordChatEvent, recordChatState, recordMessageCreated } from '../chats/chatEvents.js';
import { findOpenChat, openChat } from '../chats/openChat.js';
import { insertMessage } from '../messages/insertMessage.js';
import { upsertVisitor } from '../visitors/upsertVisitor.js';
import { claimInbound, linkInbound } from './dedupInbound.js';
import type { InboundRequest } from './parseInbound.js';

export type InboundOutcome = 'stored' | 'duplicate' | 'typing' | 'typing_ignored' | 'suppressed';

interface InboundJob {
  channel: Channel;
  req: InboundRequest;
  now: number;
}

/** Batches longer than this wait for the next transaction (bounds how long a row lock is held). */
const MAX_BATCH = 64;
/** PostgreSQL: transactions written at once, each on its own pooled connection (the pool holds 10). */
const PG_LANES = 4;

const writers = new WeakMap<AppContext, GroupCommit<InboundJob, InboundOutcome>>();

function writerOf(ctx: AppContext): GroupCommit<InboundJob, InboundOutcome> {
  let writer = writers.get(ctx);
  if (!writer) {
    writer = new GroupCommit<InboundJob, InboundOutcome>({
      run: (jobs) =>
        commit(ctx.db, ctx.signals, async (tx) => {
          const outcomes: InboundOutcome[] = [];
          for (const job of jobs) outcomes.push(await receiveOne(tx, job));
          return outcomes;
        }),
      keyOf: (job) => `${job.channel.id}:${job.req.sender.id}`,
      lanes: ctx.store.dialect === 'postgres' ? PG_LANES : 1,
      maxBatch: MAX_BATCH,
      onBatch: (size, outcome) => ctx.metrics.groupCommit.observe({ writer: 'chat_channel', outcome }, size),
    });
    writers.set(ctx, writer);
  }
  return writer;
}

export function receiveInbound(ctx: AppContext, channel: Channel, req: InboundRequest): Promise<InboundOutcome> {
  return writerOf(ctx).submit({ channel, req, now: ctx.clock() });
}

async function receiveOne(tx: Tx, { channel, req, now }: InboundJob): Promise<InboundOutcome> {
  const { sender } = req;
  const dedupKey =
    req.kind === 'message' && req.message.external_id !== null
      ? { accountId: channel.account_id, channelId: channel.id, senderId: sender.id, messageId: req.message.external_id }
      : null;
  if (dedupKey && !(await claimInbound(tx, dedupKey, now))) return 'duplicate';

  const { visitor, contactChanged } = await upsertVisitor(tx, {
    accountId: channel.account_id,
    channelId: channel.id,
    externalId: sender.id,
    externalIdIsNumber: sender.idIsNumber,
    details: { name: sender.name, phone: sender.phone, email: sender.email, photo: sender.photo, url: sender.url, invite: sender.invite },
    now,
  });

  if (req.kind === 'typing') {
    const chat = visitor.blacklisted ? undefined : await findOpenChat(tx, visitor.id);
    if (!chat) return 'typing_ignored';
    await recordChatEvent(tx, chat, 'typing', { chat_id: chat.id, author: 'visitor', typing: req.typing }, now);
    return 'typing';
  }

  if (visitor.blacklisted) {
    const last = await tx.selectFrom('chats').selectAll().where('visitor_id', '=', visitor.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (last) {
      const stored = await insertMessage(tx, { chat: last, author: 'visitor', message: req.message, suppressed: true, now });
      if (dedupKey) await linkInbound(tx, dedupKey, stored.id);
      return 'suppressed';
    }
  }

  const page = sender.url && /^https?:/.test(sender.url) ? { url: sender.url } : null;
  const { chat } = await openChat(tx, { visitor, page, now });
  if (contactChanged) await recordChatState(tx, chat, 'chat.updated', now, { change: 'visitor_updated' });
  const message = await insertMessage(tx, { chat, author: 'visitor', message: req.message, now });
  if (dedupKey) await linkInbound(tx, dedupKey, message.id);
  await recordMessageCreated(tx, chat, message, now);
  return 'stored';
}
