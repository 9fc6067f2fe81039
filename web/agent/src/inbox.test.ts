/**
 * The inbox after a stream reset (`stale`): every chat but the one on screen
 * is dropped, so chats finished or moved while the cursor was too old do not
 * linger; the one on screen keeps its messages (the view and a draft survive
 * until its refetch merges in), and typing indicators go. A preview line of
 * a message without text is put in words when drawn, in the language of that
 * moment.
 */

// setLanguage sets <html lang dir>: a stand-in document is enough here.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './i18n';
import { emptyInbox, inboxReducer, previewText, type InboxState } from './inbox';
import type { ChatDto, MessageDto } from '../../../protocol/agent';

const chat = (id: number): ChatDto =>
  ({ id, status: 'active', channel_id: 1, department_id: null, agent_ids: [], accepted_by: 1, seq: 1, created_at: 0, updated_at: 0 }) as unknown as ChatDto;

describe('inbox stale', () => {
  const full: InboxState = {
    ...emptyInbox,
    chats: { 1: chat(1), 2: chat(2) },
    messages: { 1: [], 2: [] },
    preview: { 1: 'hi', 2: 'yo' },
    typing: { 1: 99, 2: 99 },
    unread: { 2: 3 },
    counted: { 1: 5, 2: 6 },
  };

  it('keeps only the chat on screen', () => {
    expect(inboxReducer(full, { type: 'stale', keep: 1 })).toEqual({
      chats: { 1: chat(1) },
      messages: { 1: [] },
      preview: { 1: 'hi' },
      typing: {},
      unread: {},
      counted: { 1: 5 },
    });
  });

  it('keeps nothing when no chat is on screen, or the one on screen is unknown', () => {
    expect(inboxReducer(full, { type: 'stale', keep: null })).toEqual(emptyInbox);
    expect(inboxReducer(full, { type: 'stale', keep: 7 })).toEqual(emptyInbox);
  });
});

describe('inbox list rows (server previews and unread counts)', () => {
  const msg = (id: number, chatId: number, text: string, author: 'visitor' | 'agent' = 'visitor') =>
    ({ id, chat_id: chatId, author, type: 'text', text, created_at: id }) as MessageDto;
  const row = (id: number, last: MessageDto | null, unread: number): ChatDto => ({ ...chat(id), last_message: last, unread_count: unread });

  it('takes the preview and the unread count of a list row', () => {
    const state = inboxReducer(emptyInbox, { type: 'chats', chats: [row(1, msg(10, 1, 'hello'), 2), row(2, null, 0)] });
    expect(state.preview).toEqual({ 1: 'hello' });
    expect(state.unread).toEqual({ 1: 2 });
    expect(state.chats[1]).not.toHaveProperty('unread_count');
  });

  it('counts a frame once, whether the row came before or after it', () => {
    let state = inboxReducer(emptyInbox, { type: 'chats', chats: [row(1, msg(10, 1, 'hello'), 2)] });
    // A frame of a message the row already counted changes nothing.
    state = inboxReducer(state, { type: 'message', message: msg(10, 1, 'hello'), unread: true });
    expect(state.unread[1]).toBe(2);
    state = inboxReducer(state, { type: 'message', message: msg(11, 1, 'again'), unread: true });
    expect(state.unread[1]).toBe(3);
    expect(state.preview[1]).toBe('again');
    // A row read before that frame does not undo it.
    state = inboxReducer(state, { type: 'chats', chats: [row(1, msg(10, 1, 'hello'), 2)] });
    expect(state.unread[1]).toBe(3);
    expect(state.preview[1]).toBe('again');
    // A newer row wins.
    state = inboxReducer(state, { type: 'chats', chats: [row(1, msg(12, 1, 'reply', 'agent'), 0)] });
    expect(state.unread[1]).toBeUndefined();
    expect(state.preview[1]).toBe('reply');
  });

  it('takes what a read on another device left unread (chat.read), and counts newer messages on top', () => {
    let state = inboxReducer(emptyInbox, { type: 'chats', chats: [row(1, msg(10, 1, 'hello'), 3), row(2, msg(20, 2, 'there'), 2)] });
    state = inboxReducer(state, { type: 'read', chatId: 1, unread: 0 });
    expect(state.unread).toEqual({ 2: 2 });
    state = inboxReducer(state, { type: 'read', chatId: 2, unread: 1 });
    expect(state.unread).toEqual({ 2: 1 });
    state = inboxReducer(state, { type: 'message', message: msg(11, 1, 'later'), unread: true });
    expect(state.unread).toEqual({ 1: 1, 2: 1 });
    // Read here: nothing left.
    state = inboxReducer(state, { type: 'read', chatId: 2 });
    expect(state.unread).toEqual({ 1: 1 });
  });
});

describe('inbox after a channel change', () => {
  const inChannel = (id: number, channelId: number): ChatDto => ({ ...chat(id), channel_id: channelId });
  const full: InboxState = {
    ...emptyInbox,
    chats: { 1: inChannel(1, 1), 2: inChannel(2, 2) },
    messages: { 1: [], 2: [] },
    preview: { 1: 'hi', 2: 'yo' },
    typing: { 2: 99 },
    unread: { 2: 3 },
    counted: { 1: 5, 2: 6 },
  };

  it('drops the chats of the channels the agent no longer sees, and only those', () => {
    expect(inboxReducer(full, { type: 'channels', visible: [1, 3] })).toEqual({
      chats: { 1: inChannel(1, 1) },
      messages: { 1: [] },
      preview: { 1: 'hi' },
      typing: {},
      unread: {},
      counted: { 1: 5 },
    });
    expect(inboxReducer(full, { type: 'channels', visible: [1, 2] })).toBe(full);
  });
});

describe('preview lines', () => {
  afterEach(() => setLanguage('en'));
  const media = (id: number, type: string, file_name?: string) => ({ id, chat_id: 1, author: 'visitor', type, created_at: id, file_name }) as MessageDto;

  it('keep what kind of message it was and say it in the language of the moment they are drawn', async () => {
    const state = inboxReducer({ ...emptyInbox, messages: { 1: [] } }, { type: 'message', message: media(10, 'location'), unread: true });
    expect(previewText(state.preview[1])).toBe('📍 Location');
    await setLanguage('de');
    expect(previewText(state.preview[1])).toBe('📍 Standort');
    expect(previewText(inboxReducer(state, { type: 'message', message: media(11, 'document', 'invoice.pdf'), unread: true }).preview[1])).toBe(
      '📎 invoice.pdf',
    );
    expect(previewText(inboxReducer(state, { type: 'message', message: media(12, 'contact'), unread: true }).preview[1])).toBe('[contact]');
  });
});
