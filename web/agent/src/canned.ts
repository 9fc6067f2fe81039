/**
 * Canned responses in the composer: the account's list (loaded once and kept
 * until an admin changes it), the `/query` the agent is typing at the caret,
 * and which responses match it. Pure apart from the cached request.
 */
import { api } from './api';
import type { CannedResponseDto } from '../../../protocol/agent';

/** The server keeps at most this many characters of a message (TEXT_LIMIT). */
export const MESSAGE_LIMIT = 1000;

let cached: Promise<CannedResponseDto[]> | null = null;

export function loadCannedResponses(): Promise<CannedResponseDto[]> {
  cached ??= api.cannedResponses().catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

/** After an admin change: the next composer loads the list again. */
export function forgetCannedResponses(): void {
  cached = null;
}

/** The `/shortcut` being typed: it starts the message or follows a space, and ends at the caret. */
export interface SlashQuery {
  /** Index of the `/`. */
  start: number;
  /** Index of the caret. */
  end: number;
  query: string;
}

export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([a-z0-9_-]{0,32})$/i.exec(before);
  if (!match) return null;
  const start = caret - match[2].length - 1;
  return { start, end: caret, query: match[2].toLowerCase() };
}

/** Responses whose shortcut starts with the query first, then those whose shortcut or title contains it. */
export function matchCanned(all: CannedResponseDto[], query: string): CannedResponseDto[] {
  const q = query.toLowerCase();
  const starts = all.filter((c) => c.shortcut.startsWith(q));
  const contains = all.filter((c) => !c.shortcut.startsWith(q) && (c.shortcut.includes(q) || c.title.toLowerCase().includes(q)));
  const byShortcut = (a: CannedResponseDto, b: CannedResponseDto) => a.shortcut.localeCompare(b.shortcut);
  return [...starts.sort(byShortcut), ...contains.sort(byShortcut)].slice(0, 20);
}

/** The text with the `/query` replaced by the response, and where the caret goes. */
export function insertCanned(text: string, at: SlashQuery, response: CannedResponseDto): { text: string; caret: number } {
  const next = text.slice(0, at.start) + response.text + text.slice(at.end);
  return { text: next, caret: at.start + response.text.length };
}
