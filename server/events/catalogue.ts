/**
 * The one catalogue of internal event names (`<resource>.<past_verb>`), written
 * to the outbox in the transaction of the change, replayed to sockets and
 * handed to subscribers. Consumers switch over EventType exhaustively.
 */
export const EVENT_TYPES = [
  'chat.created',
  'chat.updated',
  'message.created',
  'message.updated',
  'typing',
  'offline_message.created',
  'call.updated',
  'agent.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
