/** An erasure job as administrators see it (DELETE /api/v1/visitors/:id, GET /api/v1/erasures/:id). */
import type { ErasureDto } from '../../protocol/agent.js';
import type { Erasure } from '../db/schema.js';

export type { ErasureDto };

export function presentErasure(e: Erasure): ErasureDto {
  return {
    id: e.id,
    visitor_id: e.visitor_id,
    visitor_number: e.visitor_number,
    status: e.status,
    chats_total: e.chats_total,
    chats_erased: Math.min(e.chats_erased, e.chats_total),
    messages_total: e.messages_total,
    messages_erased: Math.min(e.messages_erased, e.messages_total),
    files_erased: e.files_erased,
    created_at: e.created_at,
    finished_at: e.finished_at,
  };
}
