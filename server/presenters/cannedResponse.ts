/** A canned response as the agent/admin API shows it. */
import type { CannedResponse } from '../db/schema.js';

export interface CannedResponseDto {
  id: number;
  shortcut: string;
  title: string;
  text: string;
  created_at: number;
  updated_at: number;
}

export function presentCannedResponse(c: CannedResponse): CannedResponseDto {
  return { id: c.id, shortcut: c.shortcut, title: c.title, text: c.text, created_at: c.created_at, updated_at: c.updated_at };
}
