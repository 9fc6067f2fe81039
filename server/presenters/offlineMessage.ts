/** An offline message as agents see it (GET /api/v1/offline-messages, the offline_message.created stream frame). */
import type { OfflineMessage } from '../db/schema.js';

export interface OfflineMessageDto {
  id: number;
  channel_id: number;
  visitor_id: number | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  message: string;
  created_at: number;
}

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
  };
}
