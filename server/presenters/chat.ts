/**
 * A chat and its visitor as agents see them (API and stream), per /openapi.json.
 * The user token is never shown. The page's custom data and the chat_accepted
 * answer's are shown apart (and together in custom_data, as before). The API's
 * answers add who the waiting chat is offered to (`offer`, docs/ROUTING.md);
 * the chats inside stream frames leave it out (chat.offered frames carry it).
 */
import type { Channel, Chat, ChatOffer, Message, Visitor } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import type { ChatRowData } from '../model/chatRow.js';
import { presentMessage, type MessageDto } from './message.js';
import type { VisitorDto, ChatDto, ChatMatchDto, ChatOfferDto, ChatSearchHitDto } from '../../protocol/agent.js';
export type { VisitorDto, ChatDto, ChatMatchDto, ChatOfferDto, ChatSearchHitDto };

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

/** The stored offer a waiting chat is under (domain/chats/chatOffers.ts reads it); null when nobody's turn: no row, nobody eligible now, or the chat no longer waits. */
export function presentOffer(c: Pick<Chat, 'status'>, offer: Pick<ChatOffer, 'agent_id' | 'attempt' | 'expires_at'> | null): ChatOfferDto | null {
  if (c.status !== 'pending' || !offer || offer.agent_id === null) return null;
  return { agent_id: offer.agent_id, attempt: offer.attempt, expires_at: offer.expires_at };
}

/** `offer`: the chat's chat_offers row (null: it has none) for the API's answers; left out (frames), the DTO has no `offer` key. */
export function presentChat(c: Chat, v: Visitor, messages?: MessageDto[], offer?: ChatOffer | null): ChatDto {
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
  if (offer !== undefined) dto.offer = presentOffer(c, offer);
  return dto;
}

/** A chat list row: the chat, its channel, its last message, the agent's unread count (domain/chats/chatSummaries.ts) and its offer. */
/** A chat's detail (GET /chats/:id and the answers of its actions): the chat, its visitor, messages and offer. */
export function presentChatDetail(d: { chat: Chat; visitor: Visitor; messages: Message[]; offer: ChatOffer | null }): ChatDto {
  return presentChat(d.chat, d.visitor, d.messages.map(presentMessage), d.offer);
}

/** List rows (GET /chats, /visitors/:id/chats, the search's hits) from what the domain loaded for them. */
export function presentChatRows(rows: ReadonlyArray<ChatRowData>): ChatDto[] {
  return rows.map((r) => presentChatRow(r.chat, r.visitor, r.channel, r.last, r.unread, r.offer));
}

/** The search's hits: list rows with why each matched. */
export function presentSearchHits(hits: ReadonlyArray<Parameters<typeof presentChatRows>[0][number] & { match: ChatMatchDto | null }>): ChatSearchHitDto[] {
  return hits.map((h) => ({ ...presentChatRow(h.chat, h.visitor, h.channel, h.last, h.unread, h.offer), match: h.match }));
}

export function presentChatRow(
  c: Chat,
  v: Visitor,
  channel: Pick<Channel, 'id' | 'type' | 'name'>,
  last: Message | undefined,
  unread: number,
  offer: ChatOffer | null,
): ChatDto {
  return {
    ...presentChat(c, v, undefined, offer),
    channel: { id: channel.id, type: channel.type, name: channel.name },
    last_message: last ? presentMessage(last) : null,
    unread_count: unread,
  };
}
