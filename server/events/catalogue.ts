/**
 * The one catalogue of internal events (`<resource>.<past_verb>`): each name
 * with the type of its payload (protocol/agent.ts: the agent app reads the
 * same payloads in its stream frames). They are written to the outbox in the
 * transaction of the change (outbox.ts: recordEvent takes the payload of the
 * name it is given), replayed to sockets and handed to subscribers as a
 * RelayedEvent, a union discriminated by `type`: consumers switch over it
 * exhaustively (assertNever), so the compiler names every consumer of an event
 * whose payload changed, and every consumer that does not handle a new one.
 *
 * EVENT_CATALOGUE describes every field of every payload; docs/EVENTS.md lists
 * the same table ("The event catalogue"), and catalogue.test.ts keeps the two
 * equal. Stored JSON becomes a typed payload in one place only: decodeEvent.
 */
import type { Selectable } from 'kysely';
import type { EventPayloads, EventType } from '../../protocol/agent.js';
import type { EventsTable } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

/** The payload types live in protocol/agent.ts (the agent app reads the same frames); re-exported for the server. */
export type {
  ChannelChangedData,
  ChatChange,
  ChatEventData,
  ChatOfferedData,
  ChatReadData,
  EventPayloads,
  EventType,
  TypingEventData,
} from '../../protocol/agent.js';

/** One field of a payload: what it holds; `optional` exactly when the type lets it be absent. */
type FieldDoc<V> = undefined extends V ? { readonly doc: string; readonly optional: true } : { readonly doc: string; readonly optional?: never };

/** Every field of every payload, described: the compiler wants an entry for each field, and no other. */
export const EVENT_CATALOGUE: { readonly [T in EventType]: { readonly [F in keyof Required<EventPayloads[T]>]: FieldDoc<EventPayloads[T][F]> } } = {
  'chat.created': {
    chat: { doc: 'the chat as agents see it (`GET /api/v1/chats/:id`, without messages)' },
    change: { doc: 'absent for a new chat', optional: true },
    agent_id: { doc: 'absent for a new chat', optional: true },
  },
  'chat.updated': {
    chat: { doc: 'the chat after the change, as agents see it' },
    change: {
      doc: 'what changed: `accepted`, `visitor_updated`, `assigned`, `finished`, `answer_applied`, `transferred`, `custom_data`, `rated`, `page_changed` (the visitor is on another page) or `missed` (no agent answered it before it was finished or within `notifications.missed_chat_minutes`: `chat_missed`)',
      optional: true,
    },
    agent_id: { doc: 'the agent who made the change, when an agent did', optional: true },
  },
  'message.created': { message: { doc: 'the message as agents see it (private notes included)' } },
  'message.updated': { message: { doc: 'the message after the change (its chat-channel `delivery` status)' } },
  typing: {
    chat_id: { doc: "the chat's id" },
    author: { doc: '`visitor` or `agent`' },
    agent_id: { doc: 'the agent who types, when an agent does', optional: true },
    typing: { doc: '`true` when typing started, `false` when it stopped' },
  },
  'offline_message.created': { offline_message: { doc: 'the offline message as agents see it (`GET /api/v1/offline-messages`)' } },
  'offline_message.updated': { offline_message: { doc: 'the offline message after an agent marked it handled or not handled' } },
  'call.updated': {
    call: { doc: 'the call as agents see it (`GET /api/v1/calls`), with its new status' },
    visitor_id: { doc: "the calling visitor's id, or `null`" },
  },
  'agent.updated': { agent: { doc: 'the agent after the change (status, role, active, sign-out)' } },
  'working_hours.changed': {
    department_id: { doc: "`null` for the account's working hours for chat, else the department whose hours they are" },
    open: { doc: 'whether chat is open now by those hours' },
    changes_at: { doc: 'when `open` changes next (epoch ms), or `null` when it does not' },
  },
  'chat.offered': {
    chat_id: { doc: "the chat's id" },
    agent_id: { doc: 'the agent the waiting chat is offered to (it stays in the Waiting queue; anyone eligible may still accept it)' },
    attempt: { doc: 'which offer of the chat this is: `1` for its first, +1 at each later one (a re-offer); a wait while nobody is eligible takes no number' },
    expires_at: { doc: 'when the offer runs out (epoch ms): unless accepted by then it is offered to the next agent' },
    department_id: { doc: 'the department whose agents it is offered to first; `null` once it is offered to everyone' },
    mode: { doc: '`round_robin` or `least_busy`' },
    previous_agent_id: {
      doc: 'the agent it was offered to before (the offer ran out or was declined), also when the chat waited for nobody in between; `null` for the first',
    },
  },
  'chat.read': {
    chat_id: { doc: "the chat's id" },
    agent_id: { doc: 'the agent who read it: only its own streams (every device it is signed in on) get this event' },
    last_read_message_id: { doc: 'the last message the agent has seen now (it only moves forward)' },
    unread_count: { doc: "the visitor's messages after it, as the chat lists' `unread_count` counts them (`0` once read to the end)" },
  },
  'channel.changed': {
    channel_id: { doc: "the channel's id" },
    change: {
      doc: '`created`, `updated` (its agents, name or options) or `deleted`: sent to the agents who see the channel after the change or saw it before, administrators always; reload the chat lists and `GET /api/v1/me/channels`',
    },
  },
  'visitor.erased': {
    erasure_id: { doc: 'the erasure (`GET /api/v1/erasures/:id`)' },
    visitor_id: { doc: "the erased visitor's id (no longer found)" },
    visitor_number: { doc: "the erased visitor's number" },
    channel_id: { doc: "the visitor's channel, or `null`" },
    user_token: { doc: 'the user token the site gave the widget visitor, or `null`' },
    sender_id: { doc: "the chat channel's `sender.id` of the visitor (a string), or `null` for a widget visitor" },
    sender_id_is_number: { doc: '`true` when `sender.id` arrived as a JSON number' },
  },
};

export const EVENT_TYPES = [
  'chat.created',
  'chat.updated',
  'message.created',
  'message.updated',
  'typing',
  'offline_message.created',
  'offline_message.updated',
  'call.updated',
  'agent.updated',
  'working_hours.changed',
  'chat.offered',
  'chat.read',
  'channel.changed',
  'visitor.erased',
] as const satisfies readonly EventType[];

/** Compile-time check: EVENT_TYPES names every event of the catalogue. */
const _everyType: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void _everyType;

/** Where an event sits in the outbox (and in the order of the stream). */
export interface EventPosition {
  id: number;
  account_id: number;
  chat_id: number | null;
  channel_id: number | null;
  /** The event's number among its chat's events; null for an event of no chat. */
  seq: number | null;
  created_at: number;
}

/** A name with its payload: a union discriminated by `type` (narrow it with a switch). */
export type EventOf<T extends EventType = EventType> = { [K in T]: { type: K; data: EventPayloads[K] } }[T];

/** A committed outbox row as consumers see it: its position, its name and that name's payload. */
export type RelayedEvent<T extends EventType = EventType> = { [K in T]: EventPosition & { type: K; data: EventPayloads[K] } }[T];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The one place where stored (or published) JSON becomes a typed payload. The
 * outbox is written only by events/outbox.ts (recordEvent, and recordChatEvents
 * for the chat-channel batch with payloads made by payloadJson), which takes
 * the payload of the name it is given, so a row whose name is in the catalogue
 * and whose data is an object is that name's event. A name no longer in the
 * catalogue gives null (the event is skipped).
 */
export function decodeEvent<P extends EventPosition>(position: P, type: string, data: unknown): (P & EventOf) | null {
  const event = { ...position, type, data };
  return isCatalogued(event) ? event : null;
}

/** The consumer's view of an events row; null for a name no longer in the catalogue. */
export function toRelayedEvent(row: Selectable<EventsTable>): RelayedEvent | null {
  const position = { id: row.id, account_id: row.account_id, chat_id: row.chat_id, channel_id: row.channel_id, seq: row.seq, created_at: row.created_at };
  return decodeEvent(position, row.type, parseJson<unknown>(row.data_json, {}));
}

function isCatalogued<P extends EventPosition>(event: P & { type: string; data: unknown }): event is P & EventOf {
  return Object.hasOwn(EVENT_CATALOGUE, event.type) && isObject(event.data);
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
