/** An offline message as agents see it (GET /api/v1/offline-messages, the offline_message.created and .updated stream frames). */
import type { OfflineMessageDto } from '../../protocol/agent.js';
import type { OfflineMessage } from '../db/schema.js';

export type { OfflineMessageDto };

export function presentOfflineMessage(o: OfflineMessage): OfflineMessageDto {
  return {
    id: o.id,
    channel_id: o.channel_id,
    visitor_id: o.visitor_id,
    name: o.name,
    email: o.email,
    phone: o.phone,
    description: o.description,
    message: o.message,
    created_at: o.created_at,
    handled_at: o.handled_at ?? null,
    handled_by: o.handled_at == null ? null : (o.handled_by ?? null),
  };
}
