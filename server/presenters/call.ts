/**
 * A call as agents see it (GET /api/v1/calls, the call.updated stream frame).
 * `reason` appears only when the call failed (status error) and `record_url`
 * only once it ended, as in the spec's call object; the rest is always there.
 */
import type { Call } from '../db/schema.js';

export interface CallDto {
  id: number;
  chat_id: number | null;
  visitor_id: number | null;
  channel_id: number | null;
  agent_id: number | null;
  type: Call['type'];
  /** E.164, e.g. +15550100199. */
  phone: string;
  status: Call['status'];
  reason?: string;
  record_url?: string;
  created_at: number;
  updated_at: number;
  /** First time an agent or the visitor was connected; null before. */
  connected_at: number | null;
  ended_at: number | null;
  /** Seconds from connected_at to the end (0 if never connected); null while active. */
  duration_seconds: number | null;
}

export function presentCall(c: Call): CallDto {
  const dto: CallDto = {
    id: c.id,
    chat_id: c.chat_id,
    visitor_id: c.visitor_id,
    channel_id: c.channel_id,
    agent_id: c.agent_id,
    type: c.type,
    phone: c.phone,
    status: c.status,
    created_at: c.created_at,
    updated_at: c.updated_at,
    connected_at: c.connected_at,
    ended_at: c.ended_at,
    duration_seconds: c.duration_seconds,
  };
  if (c.status === 'error' && c.reason) dto.reason = c.reason;
  if (c.status === 'end' && c.record_url) dto.record_url = c.record_url;
  return dto;
}
