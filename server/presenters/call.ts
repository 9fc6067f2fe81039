/**
 * A call as agents see it (GET /api/v1/calls, the call.updated stream frame).
 * `reason` appears only when the call failed (status error) and `record_url`
 * only once it ended, as in the spec's call object; the rest is always there.
 */
import type { CallDto } from '../../protocol/agent.js';
import type { Call } from '../db/schema.js';

export type { CallDto };

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
