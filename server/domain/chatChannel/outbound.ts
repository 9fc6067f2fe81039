/**
 * Agent messages and typing for a chat channel's customer endpoint (spec A
 * "Outbound agent message", docs/CHAT-CHANNEL.md), as deliveries written in the
 * caller's transaction. The URL is webhook_url + "/" + CHANNEL_PUBLIC_ID
 * joined as plain strings; the bodies are shaped by presenters/chatChannel.ts.
 */
import type { Tx } from '../../db/database.js';
import type { Agent, Channel, Message, Visitor } from '../../db/schema.js';
import { chatChannelMessageBody, chatChannelTypingBody } from '../../presenters/chatChannel.js';
import { enqueueDelivery } from '../../webhooks/enqueue.js';

export function customerEndpoint(channel: Channel): string | null {
  return channel.webhook_url ? `${channel.webhook_url}/${channel.public_id}` : null;
}

export async function enqueueAgentMessage(
  tx: Tx,
  input: { channel: Channel; visitor: Visitor; agent: Agent; message: Message; now: number },
): Promise<boolean> {
  const url = customerEndpoint(input.channel);
  if (!url) return false;
  await enqueueDelivery(
    tx,
    {
      accountId: input.channel.account_id,
      kind: 'chat_channel',
      eventType: 'message',
      url,
      body: chatChannelMessageBody(input.agent, input.visitor, input.message),
      chatId: input.message.chat_id,
      messageId: input.message.id,
      chunked: input.channel.chunked === 1,
    },
    input.now,
  );
  return true;
}

export async function enqueueAgentTyping(
  tx: Tx,
  input: { channel: Channel; visitor: Visitor; agent: Agent; chatId: number; typing: boolean; now: number },
): Promise<void> {
  const url = customerEndpoint(input.channel);
  if (!url) return;
  const body = chatChannelTypingBody(input.agent, input.visitor, input.typing);
  await enqueueDelivery(
    tx,
    {
      accountId: input.channel.account_id,
      kind: 'chat_channel',
      eventType: body.message.type,
      url,
      body,
      chatId: input.chatId,
      chunked: input.channel.chunked === 1,
    },
    input.now,
  );
}
