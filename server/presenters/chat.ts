/**
 * A chat and its visitor as agents see them (API and stream), per CONTRACT §5.
 * The user token is never shown. The page's custom data and the chat_accepted
 * answer's are shown apart (and together in custom_data, as before).
 */
import type { Channel, Chat, Message, Visitor } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { presentMessage, type MessageDto } from './message.js';
import type { VisitorDto, ChatDto, ChatMatchDto, ChatSearchHitDto } from '../../protocol/agent.js';
export type { VisitorDto, ChatDto, ChatMatchDto, ChatSearchHitDto };

export function presentVisitor(v: Visitor): VisitorDto {
  return {
    id: v.id,
    number: v.number,
    name: v.name,
    email: v.email,
    phone: v.phone,
    photo: v.photo,
    url: v.url,
    invite: v.invite,
    description: v.description,
    chats_count: v.chats_count,
    blacklisted: v.blacklisted === 1,
    session: parseJson<Record<string, unknown>>(v.session_json, {}),
  };
}

/** A stored JSON list; anything else reads as empty. */
function listOf(json: string | null): unknown[] {
  const value = parseJson<unknown>(json, []);
  return Array.isArray(value) ? value : [];
}

export function presentChat(c: Chat, v: Visitor, messages?: MessageDto[]): ChatDto {
  const pageCustom = listOf(c.custom_data_json);
  const crmCustom = listOf(c.crm_custom_data_json);
  const dto: ChatDto = {
    id: c.id,
    status: c.status,
    channel_id: c.channel_id,
    department_id: c.department_id,
    visitor: presentVisitor(v),
    agent_ids: parseJson<number[]>(c.agent_ids_json, []),
    accepted_by: c.accepted_by,
    custom_data: [...pageCustom, ...crmCustom],
    page_custom_data: pageCustom,
    crm_custom_data: crmCustom,
    contact_info: parseJson<Record<string, unknown> | null>(c.contact_info_json, null),
    crm_link: c.crm_link,
    enable_assign: c.enable_assign === 1,
    page: parseJson<Record<string, unknown> | null>(c.page_json, null),
    crm_page: parseJson<Record<string, unknown> | null>(c.crm_page_json, null),
    rate: c.rate,
    blacklisted: c.blacklisted === 1,
    seq: c.last_seq,
    created_at: c.created_at,
    accepted_at: c.accepted_at,
    finished_at: c.finished_at,
    updated_at: c.updated_at,
  };
  if (messages) dto.messages = messages;
  return dto;
}

/** A chat list row: the chat, its channel, its last message and the agent's unread count (domain/chats/chatSummaries.ts). */
export function presentChatRow(c: Chat, v: Visitor, channel: Pick<Channel, 'id' | 'type' | 'name'>, last: Message | undefined, unread: number): ChatDto {
  return {
    ...presentChat(c, v),
    channel: { id: channel.id, type: channel.type, name: channel.name },
    last_message: last ? presentMessage(last) : null,
    unread_count: unread,
  };
}
