/**
 * What Parley sends to a chat channel's customer endpoint (spec A "Outbound
 * agent message", CONTRACT §2): agent messages and typing, as deliveries
 * written in the caller's transaction. The URL is webhook_url + "/" +
 * CHANNEL_PUBLIC_ID joined as plain strings; recipient.id is the visitor's
 * sender.id with its original JSON type.
 */
import type { Tx } from '../../db/database.js';
import type { Agent, Channel, Message, Visitor } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { enqueueDelivery } from '../../webhooks/enqueue.js';

export function customerEndpoint(channel: Channel): string | null {
  return channel.webhook_url ? `${channel.webhook_url}/${channel.public_id}` : null;
}

export function recipientId(visitor: Visitor): string | number {
  return visitor.external_id_is_number ? Number(visitor.external_id) : visitor.external_id;
}

function senderOf(agent: Agent): Record<string, string> {
  return agent.photo_url ? { name: agent.name, photo: agent.photo_url } : { name: agent.name };
}

export function outboundMessageBody(agent: Agent, visitor: Visitor, m: Message): Record<string, unknown> {
  const message: Record<string, unknown> = { type: m.type, id: String(m.id) };
  if (m.text !== null) message.text = m.text;
  if (m.file !== null) message.file = m.file;
  if (m.file_name !== null) message.file_name = m.file_name;
  if (m.file_size !== null) message.file_size = m.file_size;
  if (m.thumb !== null) message.thumb = m.thumb;
  if (m.latitude !== null) message.latitude = m.latitude;
  if (m.longitude !== null) message.longitude = m.longitude;
  Object.assign(message, parseJson<Record<string, unknown>>(m.extra_json, {}));
  return { sender: senderOf(agent), recipient: { id: recipientId(visitor) }, message };
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
      body: outboundMessageBody(input.agent, input.visitor, input.message),
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
  const type = input.typing ? 'typein' : 'typeout';
  await enqueueDelivery(
    tx,
    {
      accountId: input.channel.account_id,
      kind: 'chat_channel',
      eventType: type,
      url,
      body: { sender: senderOf(input.agent), recipient: { id: recipientId(input.visitor) }, message: { type } },
      chatId: input.chatId,
      chunked: input.channel.chunked === 1,
    },
    input.now,
  );
}
