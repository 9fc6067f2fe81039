/** A canned response as the agent/admin API shows it. */
import type { CannedResponse } from '../db/schema.js';
import type { CannedResponseDto } from '../../protocol/agent.js';
export type { CannedResponseDto };

export function presentCannedResponse(c: CannedResponse): CannedResponseDto {
  return { id: c.id, shortcut: c.shortcut, title: c.title, text: c.text, created_at: c.created_at, updated_at: c.updated_at };
}
