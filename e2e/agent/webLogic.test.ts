/**
 * The agent app's pure logic, without a browser: the inbox reducer (dedupe by
 * message id, older copies never win), the stream's reconnect backoff, the
 * app's paths, and the URL guards that keep visitor strings out of hrefs.
 */
import { describe, expect, it } from 'vitest';
import { allowedBySafeUrl, describeUserAgent, fileSize, safeHref, visitorName } from '../../web/agent/src/format.js';
import {
  attentionCount,
  chatOfFrame,
  chatsWithStatus,
  emptyInbox,
  inboxReducer,
  mergeMessages,
  totalUnread,
  type InboxState,
} from '../../web/agent/src/inbox.js';
import { parseRoute } from '../../web/agent/src/routes.js';
import { backoffDelay } from '../../web/agent/src/stream.js';
import type { ChatDto, MessageDto } from '../../protocol/agent.js';

const visitor = {
  id: 1,
  number: 1,
  name: 'Ann',
  email: null,
  phone: null,
  photo: null,
  url: null,
  invite: null,
  description: null,
  chats_count: 1,
  blacklisted: false,
  session: {},
};

function chat(id: number, seq: number, status: ChatDto['status'] = 'pending', messages?: MessageDto[]): ChatDto {
  return {
    id,
    status,
    channel_id: 1,
    department_id: null,
    visitor,
    agent_ids: [],
    accepted_by: null,
    custom_data: [],
    page_custom_data: [],
    crm_custom_data: [],
    contact_info: null,
    crm_link: null,
    enable_assign: false,
    page: null,
    crm_page: null,
    rate: null,
    blacklisted: false,
    seq,
    created_at: 1,
    accepted_at: null,
    finished_at: null,
    updated_at: seq,
    ...(messages ? { messages } : {}),
  };
}

const msg = (id: number, extra: Partial<MessageDto> = {}): MessageDto => ({
  id,
  chat_id: 7,
  author: 'visitor',
  type: 'text',
  text: `m${id}`,
  created_at: id,
  ...extra,
});

describe('inbox reducer', () => {
  it('keeps the newer copy of a chat by sequence number', () => {
    let s = inboxReducer(emptyInbox, { type: 'chat', chat: chat(7, 5, 'active') });
    s = inboxReducer(s, { type: 'chats', chats: [chat(7, 3, 'pending')] });
    expect(s.chats[7].status).toBe('active');
    s = inboxReducer(s, { type: 'chat', chat: chat(7, 6, 'finished') });
    expect(chatsWithStatus(s, 'finished').map((c) => c.id)).toEqual([7]);
  });

  it('keeps a frame’s chat over an API copy read before the frame’s event (same chat seq, older state)', () => {
    // Reply answered with seq 5; the chat_accepted answer's chat.updated frame is event seq 6 but carries chat seq 5.
    const answered = { ...chat(7, 5, 'active'), custom_data: [{ key: 'Order id', content: 'A-1001' }] };
    let s = inboxReducer(emptyInbox, { type: 'chat', chat: chatOfFrame(answered, 6) });
    s = inboxReducer(s, { type: 'chat', chat: chat(7, 5, 'active') });
    expect(s.chats[7].custom_data).toEqual([{ key: 'Order id', content: 'A-1001' }]);
    expect(chatOfFrame(chat(7, 5, 'active'), undefined).seq).toBe(5);
    expect(chatOfFrame(chat(7, 5, 'active'), 3).seq).toBe(5);
  });

  it('merges messages by id, in id order, and counts a replayed message once', () => {
    let s: InboxState = inboxReducer(emptyInbox, { type: 'chat', chat: chat(7, 1, 'active', [msg(1), msg(3)]) });
    s = inboxReducer(s, { type: 'message', message: msg(2), unread: true });
    s = inboxReducer(s, { type: 'message', message: msg(2), unread: true });
    expect(s.messages[7].map((m) => m.id)).toEqual([1, 2, 3]);
    expect(s.unread[7]).toBe(1);
    expect(totalUnread(s)).toBe(1);
    s = inboxReducer(s, { type: 'read', chatId: 7 });
    expect(totalUnread(s)).toBe(0);
  });

  it('counts a waiting chat once, however many unread messages it has', () => {
    let s = inboxReducer(emptyInbox, { type: 'chats', chats: [chat(7, 1, 'pending'), chat(8, 1, 'active', [])] });
    s = inboxReducer(s, { type: 'message', message: msg(1), unread: true });
    s = inboxReducer(s, { type: 'message', message: msg(2), unread: true });
    s = inboxReducer(s, { type: 'message', message: msg(3, { chat_id: 8 }), unread: true });
    expect(attentionCount(s)).toBe(2);
  });

  it('never lets an older pending copy undo a final delivery status', () => {
    const delivered = msg(4, { author: 'agent', delivery: { status: 'delivered' } });
    const pending = msg(4, { author: 'agent', delivery: { status: 'pending' } });
    const failed = msg(4, { author: 'agent', delivery: { status: 'failed', error: 'nope' } });
    expect(mergeMessages([delivered], [pending])[0].delivery?.status).toBe('delivered');
    expect(mergeMessages([pending], [failed])[0].delivery).toEqual({ status: 'failed', error: 'nope' });
  });

  it('keeps a preview line, never from a private note, and clears typing on a visitor message', () => {
    let s = inboxReducer(emptyInbox, { type: 'typing', chatId: 7, until: Date.now() + 1000 });
    s = inboxReducer(s, { type: 'message', message: msg(1, { text: 'hello' }), unread: false });
    expect(s.preview[7]).toBe('hello');
    expect(s.typing[7]).toBeUndefined();
    s = inboxReducer(s, { type: 'message', message: msg(2, { author: 'agent', internal: true, text: 'secret note' }), unread: false });
    expect(s.preview[7]).toBe('hello');
  });
});

describe('stream backoff', () => {
  it('grows exponentially with jitter and stops at 30 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
  });
});

describe('paths', () => {
  it('maps paths to screens', () => {
    expect(parseRoute('/')).toEqual({ name: 'inbox', tab: 'pending' });
    expect(parseRoute('/inbox/mine')).toEqual({ name: 'inbox', tab: 'mine' });
    expect(parseRoute('/chats/42')).toEqual({ name: 'chat', id: 42 });
    expect(parseRoute('/chats/x')).toEqual({ name: 'notFound' });
    expect(parseRoute('/admin')).toEqual({ name: 'admin', section: 'agents' });
    expect(parseRoute('/admin/deliveries')).toEqual({ name: 'admin', section: 'deliveries' });
    expect(parseRoute('/admin/nope')).toEqual({ name: 'notFound' });
    expect(parseRoute('/reports')).toEqual({ name: 'reports' });
    expect(parseRoute('/profile')).toEqual({ name: 'profile' });
  });
});

describe('display helpers', () => {
  it('only ever makes http(s) URLs into links', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
    expect(safeHref(42)).toBeNull();
  });

  it('applies Safe URL to links (same host or a subdomain)', () => {
    expect(allowedBySafeUrl('https://shop.example.com/a', null)).toBe(true);
    expect(allowedBySafeUrl('https://shop.example.com/a', 'https://shop.example.com')).toBe(true);
    expect(allowedBySafeUrl('https://eu.shop.example.com/a', 'https://shop.example.com')).toBe(true);
    expect(allowedBySafeUrl('https://evilshop.example.com/a', 'https://shop.example.com')).toBe(false);
    expect(allowedBySafeUrl('https://other.example/a', 'https://shop.example.com')).toBe(false);
  });

  it('names visitors and sizes files', () => {
    expect(visitorName({ name: ' ', email: null, phone: '+1555' })).toBe('+1555');
    expect(visitorName({ name: null, email: null, phone: null })).toBe('Anonymous');
    expect(fileSize(12_345)).toBe('12.1 KB');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 on iOS (phone)');
  });
});
