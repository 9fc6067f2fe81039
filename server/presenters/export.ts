/**
 * The lines of an account's export (GET /api/v1/export, docs/DATA.md "Export"):
 * `{"type": …, "data": {…}}`, the row as the API shows it in `data`. Nothing that
 * lets anyone in leaves: no password hash, token, visitor user token, webhook
 * secret, channel path secret (endpoint URLs) or identity secret. Times are
 * Unix milliseconds, as everywhere in the API.
 */
import type { AccountRow, VisitorData } from '../db/exportRows.js';
import { presentAgent } from './agent.js';
import { presentCall } from './call.js';
import { presentCannedResponse } from './cannedResponse.js';
import { presentChannel } from './channel.js';
import { presentChat, presentVisitor } from './chat.js';
import { presentDepartment } from './department.js';
import { presentMessage } from './message.js';
import { presentOfflineMessage } from './offlineMessage.js';
import { parseJson } from '../lib/json.js';
import type { Chat, Message, Visitor } from '../db/schema.js';
import { presentDelivery } from './delivery.js';

/** One line: what the row is, and the row (its own `type`, a message's or a call's, stays inside). */
export interface ExportLine {
  type: AccountRow['type'];
  data: object;
}

/** A visitor with what identifies them to the integrator: the chat channel's sender id (`external_id`), never the user token. */
export function presentExportVisitor(v: Visitor): Record<string, unknown> {
  return { ...presentVisitor(v), channel_id: v.channel_id, external_id: v.external_id, created_at: v.created_at, updated_at: v.updated_at };
}

/** A chat without the visitor inline (visitor lines come first; `visitor_id` points at one). */
export function presentExportChat(c: Chat): Record<string, unknown> {
  // presentChat wants a visitor; the chat's own fields are all that is kept of its answer.
  const { visitor: _visitor, ...chat } = presentChat(c, { id: c.visitor_id, session_json: '{}', blacklisted: 0 } as Visitor);
  return { ...chat, visitor_id: c.visitor_id, missed_at: c.missed_at, first_response_at: c.first_response_at };
}

export function presentExportLine(item: AccountRow, publicUrl: string): ExportLine {
  switch (item.type) {
    case 'account':
      return { type: 'account', data: { id: item.row.id, name: item.row.name, created_at: item.row.created_at } };
    case 'agent':
      return { type: 'agent', data: presentAgent({ ...item.row, department_ids: item.departmentIds }) };
    case 'department':
      return { type: 'department', data: { ...presentDepartment(item.row), created_at: item.row.created_at } };
    case 'channel': {
      const dto = presentChannel(item.row, item.agentIds, publicUrl) as unknown as Record<string, unknown>;
      // The endpoint URLs carry the channel's path secret; the identity secret signs user tokens.
      const { endpoint_url: _e, status_url: _s, identity_secret: _i, ...rest } = dto;
      return { type: 'channel', data: { ...rest, created_at: item.row.created_at, updated_at: item.row.updated_at } };
    }
    case 'canned_response':
      return { type: 'canned_response', data: presentCannedResponse(item.row) };
    case 'visitor':
      return { type: 'visitor', data: presentExportVisitor(item.row) };
    case 'chat':
      return { type: 'chat', data: presentExportChat(item.row) };
    case 'message':
      return { type: 'message', data: presentMessage(item.row) };
    case 'call':
      return { type: 'call', data: presentCall(item.row) };
    case 'offline_message':
      return { type: 'offline_message', data: presentOfflineMessage(item.row) };
  }
}

/** A stored JSON object column for the export; anything else is null. */
export function jsonObjectOf(json: string | null): Record<string, unknown> | null {
  const value = parseJson<unknown>(json, null);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** One visitor's data as the right of access gives it (GET /api/v1/visitors/:id/export). */
export function presentVisitorExport(d: VisitorData, publicUrl: string, exportedAt: number) {
  const messagesOf = new Map<number, Message[]>();
  for (const m of d.messages) messagesOf.set(m.chat_id, [...(messagesOf.get(m.chat_id) ?? []), m]);
  return {
    exported_at: exportedAt,
    visitor: {
      ...presentExportVisitor(d.visitor),
      widget_contact: jsonObjectOf(d.visitor.widget_contact_json),
      transcript_email: d.visitor.transcript_email,
    },
    chats: d.chats.map((c) => ({ ...presentExportChat(c), messages: (messagesOf.get(c.id) ?? []).map(presentMessage) })),
    files: d.uploads.map((u) => ({ url: `${publicUrl}/widget/uploads/${u.name}`, size: u.size, message_id: u.message_id, created_at: u.created_at })),
    calls: d.calls.map(presentCall),
    offline_messages: d.offlineMessages.map(presentOfflineMessage),
    events: d.events.map((e) => ({ id: e.id, type: e.type, chat_id: e.chat_id, created_at: e.created_at, data: parseJson<unknown>(e.data_json, null) })),
    deliveries: d.deliveries.map((x) => ({ ...presentDelivery(x), body: readBody(x.body) })),
  };
}

/** A delivery's body as sent: JSON when it is JSON (webhooks, the chat channel), the text otherwise (mails). */
function readBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
