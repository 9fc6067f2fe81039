/**
 * An agent writes in a chat. A pending chat is accepted by writing in it (the
 * agent pressed Reply by answering). One transaction: the message, its
 * message.created event and, for a chat-channel chat, the delivery to the
 * customer endpoint (status pending until the deliverer settles it).
 * Private notes (internal) are stored and shown to agents, never sent. Writing
 * to the visitor of a chat another agent holds is refused (403), a note is
 * not (chatRights.ts). A media message always carries file_name and
 * file_size, filled from the upload it points to when Parley stores it, else
 * refused without them (mediaFields.ts).
 */
import type { AppContext } from '../../context.js';
import type { Agent, Message } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { enqueueAgentMessage } from '../chatChannel/outbound.js';
import { acceptInTx, withAgent } from '../chats/acceptChat.js';
import { recordMessageCreated } from '../chats/chatEvents.js';
import { assertMayActOnChat } from '../chats/chatRights.js';
import { loadChatFor } from '../chats/loadChat.js';
import { attachUpload } from '../widget/attachUpload.js';
import { insertMessage } from './insertMessage.js';
import { completeMediaFields } from './mediaFields.js';
import type { NormalizedMessage } from './normalizeMessage.js';

export async function sendAgentMessage(
  ctx: AppContext,
  input: { actor: Agent; chatId: number; message: NormalizedMessage; internal?: boolean },
): Promise<Message> {
  const { actor } = input;
  const loaded = await loadChatFor(ctx.db, actor, input.chatId);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    let chat = await tx.selectFrom('chats').selectAll().where('id', '=', loaded.id).executeTakeFirstOrThrow();
    if (chat.status === 'finished') throw new AppError('chat_finished', 'This chat is finished; the visitor starts a new one by writing again.');
    assertMayActOnChat(actor, chat, input.internal ? 'note' : 'post');
    // Checked (and filled from the upload) before anything is written: a refusal changes nothing.
    const content = await completeMediaFields(tx, { accountId: chat.account_id, publicUrl: ctx.config.publicUrl, message: input.message });
    if (chat.status === 'pending' && !input.internal) chat = await acceptInTx(tx, chat, actor, now);
    else if (!input.internal) {
      const agentIds = withAgent(chat, actor.id);
      if (agentIds !== chat.agent_ids_json) {
        chat = await tx
          .updateTable('chats')
          .set({ agent_ids_json: agentIds, updated_at: now })
          .where('id', '=', chat.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      }
    }
    if (!input.internal && chat.first_response_at === null) {
      // The first response of the chat (reports); a conditional update, so two first replies at once keep the earlier.
      chat =
        (await tx
          .updateTable('chats')
          .set({ first_response_at: now })
          .where('id', '=', chat.id)
          .where('first_response_at', 'is', null)
          .returningAll()
          .executeTakeFirst()) ?? chat;
    }
    const channel = await tx.selectFrom('channels').selectAll().where('id', '=', chat.channel_id).executeTakeFirstOrThrow();
    const viaChannel = channel.type === 'chat_api' && !input.internal && channel.webhook_url !== null;
    const message = await insertMessage(tx, {
      chat,
      author: 'agent',
      agentId: actor.id,
      message: content,
      internal: input.internal,
      deliveryStatus: viaChannel ? 'pending' : null,
      now,
    });
    // A file the agent uploaded (storeAgentUpload.ts) is kept as long as the message that carries it.
    if (message.file !== null) await attachUpload(tx, { accountId: chat.account_id, file: message.file, messageId: message.id });
    if (viaChannel) {
      const visitor = await tx.selectFrom('visitors').selectAll().where('id', '=', chat.visitor_id).executeTakeFirstOrThrow();
      await enqueueAgentMessage(tx, { channel, visitor, agent: actor, message, now });
    }
    await recordMessageCreated(tx, chat, message, now);
    return message;
  });
}
