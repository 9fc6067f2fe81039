/**
 * The inbox after a stream reset (`stale`): every chat but the one on screen
 * is dropped, so chats finished or moved while the cursor was too old do not
 * linger; the one on screen keeps its messages (the view and a draft survive
 * until its refetch merges in), and typing indicators go.
 */
import { describe, expect, it } from 'vitest';
import { emptyInbox, inboxReducer, type InboxState } from './inbox';
import type { Chat } from './types';

const chat = (id: number): Chat =>
  ({ id, status: 'active', channel_id: 1, department_id: null, agent_ids: [], accepted_by: 1, seq: 1, created_at: 0, updated_at: 0 }) as unknown as Chat;

describe('inbox stale', () => {
  const full: InboxState = {
    ...emptyInbox,
    chats: { 1: chat(1), 2: chat(2) },
    messages: { 1: [], 2: [] },
    preview: { 1: 'hi', 2: 'yo' },
    typing: { 1: 99, 2: 99 },
    unread: { 2: 3 },
  };

  it('keeps only the chat on screen', () => {
    expect(inboxReducer(full, { type: 'stale', keep: 1 })).toEqual({
      chats: { 1: chat(1) },
      messages: { 1: [] },
      preview: { 1: 'hi' },
      typing: {},
      unread: {},
    });
  });

  it('keeps nothing when no chat is on screen, or the one on screen is unknown', () => {
    expect(inboxReducer(full, { type: 'stale', keep: null })).toEqual(emptyInbox);
    expect(inboxReducer(full, { type: 'stale', keep: 7 })).toEqual(emptyInbox);
  });
});
