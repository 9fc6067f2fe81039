/** A message as agents see it (API and stream), as /openapi.json describes it. */
import type { Message } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { copyMessageContent } from './messageFields.js';
import type { MessageDto } from '../../protocol/agent.js';
export type { MessageDto };

export function presentMessage(m: Message): MessageDto {
  const dto: MessageDto = { id: m.id, chat_id: m.chat_id, author: m.author, type: m.type, created_at: m.created_at };
  if (m.agent_id !== null) dto.agent_id = m.agent_id;
  copyMessageContent(dto, m);
  if (m.file_removed_at != null) dto.file_removed = true;
  Object.assign(dto, parseJson<Record<string, unknown>>(m.extra_json, {}));
  if (m.internal === 1) dto.internal = true;
  if (m.delivery_status !== null) {
    dto.delivery = { status: m.delivery_status };
    if (m.delivery_error !== null) dto.delivery.error = m.delivery_error;
  }
  return dto;
}
