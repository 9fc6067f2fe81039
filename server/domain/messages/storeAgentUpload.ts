/**
 * An agent attaches a file to a reply (POST /api/v1/chats/:id/uploads): the
 * visitor's upload path in reverse. The agent must be able to write to the
 * chat's visitor (chatRights.ts) and the chat must not be finished; the file
 * is then checked and stored exactly as a visitor's (uploads/storeUpload.ts:
 * allowed types with their leading bytes, 10 MiB, the quotas of the account
 * and the chat's channel (never the visitor's: uploads/quota.ts), swept
 * after an hour unless a message carries it). The agent sends it with
 * POST /chats/:id/messages as the spec's media message ({type, file,
 * file_name, file_size}), which attaches the upload (sendAgentMessage.ts).
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import type { UploadResponse } from '../../../protocol/widget.js';
import { assertMayActOnChat } from '../chats/chatRights.js';
import { loadChatFor } from '../chats/loadChat.js';
import { storeUpload } from '../uploads/storeUpload.js';

export async function storeAgentUpload(
  ctx: AppContext,
  input: { actor: Agent; chatId: number; contentType: string | undefined; fileName: string | undefined; data: Buffer },
): Promise<UploadResponse> {
  const chat = await loadChatFor(ctx.db, input.actor, input.chatId);
  if (chat.status === 'finished') throw new AppError('chat_finished', 'This chat is finished; files can be sent only in an open chat.');
  assertMayActOnChat(input.actor, chat, 'post');
  return storeUpload(ctx, {
    accountId: chat.account_id,
    channelId: chat.channel_id,
    visitorId: null,
    contentType: input.contentType,
    fileName: input.fileName,
    data: input.data,
  });
}
