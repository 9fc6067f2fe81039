/**
 * The agents' stream frames (GET /api/v1/stream): every event as it was
 * recorded (its payload is already the agent shape, built by the agent API's
 * presenters when the event was recorded), with where it sits: the event id as
 * cursor, its chat and the chat's sequence number.
 */
import type { EventFrame } from '../../protocol/agent.js';
import { assertNever, type RelayedEvent } from '../events/catalogue.js';

/** A frame of the agents' stream: an event's name and payload as recorded, and where it sits (cursor, chat, seq). */
export type StreamFrame = EventFrame;

/** Agents see every event as it was recorded: its payload is already the agent shape. */
export function toFrame(e: RelayedEvent): StreamFrame {
  switch (e.type) {
    case 'chat.created':
    case 'chat.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'message.created':
    case 'message.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'typing':
      return positioned({ type: e.type, data: e.data }, e);
    case 'offline_message.created':
    case 'offline_message.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'call.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'agent.updated':
      return positioned({ type: e.type, data: e.data }, e);
    case 'working_hours.changed':
      return positioned({ type: e.type, data: e.data }, e);
    case 'chat.offered':
      return positioned({ type: e.type, data: e.data }, e);
    case 'chat.read':
      return positioned({ type: e.type, data: e.data }, e);
    case 'channel.changed':
      return positioned({ type: e.type, data: e.data }, e);
    case 'visitor.erased':
      return positioned({ type: e.type, data: e.data }, e);
    default:
      return assertNever(e);
  }
}

function positioned(frame: StreamFrame, e: RelayedEvent): StreamFrame {
  frame.cursor = e.id;
  if (e.chat_id !== null) frame.chat_id = e.chat_id;
  if (e.seq !== null) frame.seq = e.seq;
  return frame;
}
