/** A delivery (one outgoing request) as the admin API's delivery log shows it. */
import type { Delivery } from '../db/schema.js';
import type { DeliveryDto } from '../../protocol/agent.js';
export type { DeliveryDto };

export function presentDelivery(d: Delivery): DeliveryDto {
  return {
    id: d.id,
    kind: d.kind,
    event_type: d.event_type,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_response: d.last_response,
    last_error: d.last_error,
    webhook_id: d.webhook_id,
    chat_id: d.chat_id,
    message_id: d.message_id,
    created_at: d.created_at,
    updated_at: d.updated_at,
    delivered_at: d.delivered_at,
    // Only a pending row has a next attempt.
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  };
}
