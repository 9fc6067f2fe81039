/**
 * The agent's chat API (/openapi.json): list, search, detail, accept (Reply), messages,
 * read (the agent's unread state), typing, assign (bind to CRM card), finish, transfer to another agent.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../../context.js';
import { acceptChat } from '../../../../domain/chats/acceptChat.js';
import { assignChat } from '../../../../domain/chats/assignChat.js';
import { finishChat } from '../../../../domain/chats/finishChat.js';
import { markChatRead } from '../../../../domain/chats/markChatRead.js';
import { getChat, listChats } from '../../../../domain/chats/queryChats.js';
import { searchChats } from '../../../../domain/chats/searchChats.js';
import { sendTyping } from '../../../../domain/chats/sendTyping.js';
import { transferChat } from '../../../../domain/chats/transferChat.js';
import { transferToDepartment } from '../../../../domain/chats/transferToDepartment.js';
import { InvalidMessage, normalizeMessage } from '../../../../domain/messages/normalizeMessage.js';
import { sendAgentMessage } from '../../../../domain/messages/sendAgentMessage.js';
import { invalid } from '../../../../errors/AppError.js';
import { presentMessage } from '../../../../presenters/message.js';
import { presentChatDetail, presentChatRows, presentSearchHits } from '../../../../presenters/chat.js';
import { actor, makeGuards } from '../../../authenticate.js';
import { readPage } from '../../../pagination.js';
import { IdParams, readId } from '../../../params.js';
import { ChatSearchQuery, readChatSearch } from './searchQuery.js';
import { ChatListQuery, FinishBody, MessageBody, ReadBody, TransferBody, TypingBody } from './schema.js';

export async function chatRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { requireAgent } = makeGuards(ctx);
  const opts = { tags: ['chats'], security: [{ bearer: [] }] };

  app.get('/chats', { schema: { ...opts, querystring: ChatListQuery }, preValidation: requireAgent }, async (request) => {
    const page = readPage(request.query);
    return presentChatRows(
      await listChats(ctx, { actor: actor(request), status: request.query.status, q: request.query.q, limit: page.limit, before: page.before ?? undefined }),
    );
  });

  // Search over the whole history; a static path, so Fastify never reads "search" as an :id.
  app.get('/chats/search', { schema: { ...opts, querystring: ChatSearchQuery }, preValidation: requireAgent }, async (request) =>
    presentSearchHits(await searchChats(ctx, { actor: actor(request), ...readChatSearch(request.query) })),
  );

  app.get('/chats/:id', { schema: { ...opts, params: IdParams }, preValidation: requireAgent }, async (request) =>
    presentChatDetail(await getChat(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat') })),
  );

  app.post('/chats/:id/accept', { schema: { ...opts, params: IdParams }, preValidation: requireAgent }, async (request) => {
    const chat = await acceptChat(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat') });
    return presentChatDetail(await getChat(ctx, { actor: actor(request), chatId: chat.id }));
  });

  app.post('/chats/:id/messages', { schema: { ...opts, params: IdParams, body: MessageBody }, preValidation: requireAgent }, async (request, reply) => {
    const chatId = readId(request.params, 'Chat');
    let normalized;
    try {
      normalized = normalizeMessage(request.body);
    } catch (err) {
      if (err instanceof InvalidMessage) throw invalid(err.message);
      throw err;
    }
    if (normalized.kind !== 'message') throw invalid('Send typing with POST /api/v1/chats/:id/typing.');
    const message = await sendAgentMessage(ctx, { actor: actor(request), chatId, message: normalized.message, internal: request.body.internal });
    return reply.code(201).send(presentMessage(message));
  });

  // The agent has seen the chat: its unread count (list rows' unread_count) drops, for this agent only; its other devices hear chat.read.
  const readDoc = {
    summary: 'You have seen the chat (up to message_id, or its last message) → {chat_id, last_read_message_id}',
    description:
      "Your unread count of the chat (list rows' unread_count) drops; other agents' counts do not. The mark only moves forward. When it moved, a chat.read frame {chat_id, agent_id, last_read_message_id, unread_count} reaches every stream of yours (your other devices), and no other agent's.",
  };
  app.post('/chats/:id/read', { schema: { ...opts, ...readDoc, params: IdParams, body: ReadBody }, preValidation: requireAgent }, async (request) =>
    markChatRead(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat'), messageId: request.body?.message_id }),
  );

  app.post('/chats/:id/typing', { schema: { ...opts, params: IdParams, body: TypingBody }, preValidation: requireAgent }, async (request, reply) => {
    await sendTyping(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat'), typing: request.body.typing });
    return reply.code(204).send();
  });

  app.post('/chats/:id/assign', { schema: { ...opts, params: IdParams }, preValidation: requireAgent }, async (request) => {
    const chat = await assignChat(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat') });
    return presentChatDetail(await getChat(ctx, { actor: actor(request), chatId: chat.id }));
  });

  app.post('/chats/:id/finish', { schema: { ...opts, params: IdParams, body: FinishBody }, preValidation: requireAgent }, async (request) => {
    const chat = await finishChat(ctx, { actor: actor(request), chatId: readId(request.params, 'Chat'), blacklist: request.body?.blacklist });
    return presentChatDetail(await getChat(ctx, { actor: actor(request), chatId: chat.id }));
  });

  app.post('/chats/:id/transfer', { schema: { ...opts, params: IdParams, body: TransferBody }, preValidation: requireAgent }, async (request) => {
    const chatId = readId(request.params, 'Chat');
    const { agent_id: agentId, department_id: departmentId } = request.body;
    if ((agentId === undefined) === (departmentId === undefined))
      throw invalid('Give either agent_id (an agent) or department_id (a department) to transfer the chat to.');
    const chat =
      agentId !== undefined
        ? await transferChat(ctx, { actor: actor(request), chatId, agentId })
        : await transferToDepartment(ctx, { actor: actor(request), chatId, departmentId: departmentId ?? 0 });
    return presentChatDetail(await getChat(ctx, { actor: actor(request), chatId: chat.id }));
  });
}
