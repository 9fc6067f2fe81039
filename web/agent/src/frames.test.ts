/**
 * applyFrame frame by frame: the live state it returns and the effects it asks
 * for (announcements, ringing, alerts, fetches, navigation, live-list items),
 * given the moment (who is signed in, the chat and page on screen, the clock).
 * Nothing here touches a DOM, the API or the alerts: the function is pure.
 */

// setLanguage sets <html lang dir>: a stand-in document is enough here.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };
import { describe, expect, it } from 'vitest';
import type { CallDto, ChatDto, EventFrame, MessageDto, OfflineMessageDto } from '../../../protocol/agent';
import { applyFrame, emptyLive, type FrameEnv, type LiveState } from './frames';
import { emptyInbox, inboxReducer } from './inbox';

const ME = 7;
const env = (over: Partial<FrameEnv> = {}): FrameEnv => ({ meId: ME, openChatId: null, visible: true, page: 'inbox', now: 1_000_000, ...over });

const chat = (id: number, over: Partial<ChatDto> = {}): ChatDto =>
  ({
    id,
    status: 'pending',
    channel_id: 1,
    department_id: null,
    visitor: { id: 100 + id, name: 'Ana' },
    agent_ids: [],
    accepted_by: null,
    seq: 1,
    created_at: 0,
    updated_at: 0,
    ...over,
  }) as unknown as ChatDto;

const message = (id: number, chatId: number, over: Partial<MessageDto> = {}): MessageDto =>
  ({ id, chat_id: chatId, author: 'visitor', type: 'text', text: 'hello', internal: false, created_at: 0, ...over }) as unknown as MessageDto;

/** A state that already has `ids` (as the lists' load leaves it). */
function knowing(...ids: number[]): LiveState {
  const chats = ids.map((id) => chat(id, { status: 'active', accepted_by: ME }));
  return { ...emptyLive(inboxReducer(emptyInbox, { type: 'chats', chats })), known: Object.fromEntries(ids.map((id) => [id, true as const])) };
}

const frame = (f: EventFrame): EventFrame => f;

describe('applyFrame', () => {
  it('chat.created of a waiting chat: in the inbox, known, announced and ringing', () => {
    const before = emptyLive(emptyInbox);
    const { state, effects } = applyFrame(before, frame({ type: 'chat.created', data: { chat: chat(1) }, seq: 2 }), env());
    expect(state.inbox.chats[1]).toMatchObject({ id: 1, status: 'pending', seq: 2 });
    expect(state.known[1]).toBe(true);
    expect(effects).toEqual([
      { type: 'announce', text: 'New chat from Ana' },
      { type: 'ring', chatId: 1, title: 'New chat', body: 'Ana', to: '/chats/1' },
    ]);
    // Pure: the state it was given is unchanged.
    expect(before).toEqual(emptyLive(emptyInbox));
  });

  it('chat.updated accepted: the ringing stops, nothing announced', () => {
    const { state, effects } = applyFrame(
      emptyLive(emptyInbox),
      frame({ type: 'chat.updated', data: { chat: chat(1, { status: 'active', accepted_by: 3 }), change: 'accepted', agent_id: 3 } }),
      env(),
    );
    expect(state.inbox.chats[1].status).toBe('active');
    expect(effects).toEqual([{ type: 'stopRinging', chatId: 1 }]);
  });

  it('a chat transferred to me on the inbox with nothing open: announced, alerted, and opened beside "My chats"', () => {
    const transferred = frame({ type: 'chat.updated', data: { chat: chat(4, { status: 'active', accepted_by: ME }), change: 'transferred', agent_id: 3 } });
    const { effects } = applyFrame(emptyLive(emptyInbox), transferred, env());
    expect(effects.map((e) => e.type)).toEqual(['stopRinging', 'announce', 'alert', 'navigate']);
    expect(effects.at(-1)).toEqual({ type: 'navigate', to: '/chats/4?list=mine' });
    // A conversation on screen stays.
    expect(applyFrame(emptyLive(emptyInbox), transferred, env({ openChatId: 9 })).effects.map((e) => e.type)).not.toContain('navigate');
    // My own transfer alerts nobody.
    const mine = frame({ type: 'chat.updated', data: { chat: chat(4, { status: 'active', accepted_by: ME }), change: 'transferred', agent_id: ME } });
    expect(applyFrame(emptyLive(emptyInbox), mine, env()).effects).toEqual([{ type: 'stopRinging', chatId: 4 }]);
  });

  it('message.created of a chat not on screen: unread, previewed, an alert for my chats only', () => {
    const { state, effects } = applyFrame(knowing(1), frame({ type: 'message.created', data: { message: message(10, 1) } }), env());
    expect(state.inbox.unread[1]).toBe(1);
    expect(state.inbox.preview[1]).toBe('hello');
    expect(effects).toEqual([{ type: 'alert', event: 'new_message', title: 'New message', body: 'hello', tag: 'chat-1', to: '/chats/1', mineOnly: 1 }]);
  });

  it('message.created in the conversation on screen: read at once, no alert', () => {
    const { state, effects } = applyFrame(knowing(1), frame({ type: 'message.created', data: { message: message(10, 1) } }), env({ openChatId: 1 }));
    expect(state.inbox.unread[1]).toBeUndefined();
    expect(effects).toEqual([{ type: 'markRead', chatId: 1, messageId: 10 }]);
    // The same chat on screen but the tab in the background: unread.
    expect(
      applyFrame(knowing(1), frame({ type: 'message.created', data: { message: message(10, 1) } }), env({ openChatId: 1, visible: false })).state.inbox
        .unread[1],
    ).toBe(1);
  });

  it('a message of a chat this client has no copy of fetches the chat, once', () => {
    const first = applyFrame(emptyLive(emptyInbox), frame({ type: 'message.created', data: { message: message(10, 5, { author: 'agent' }) } }), env());
    expect(first.effects).toEqual([{ type: 'fetchChat', chatId: 5 }]);
    const second = applyFrame(first.state, frame({ type: 'message.updated', data: { message: message(10, 5, { author: 'agent' }) } }), env());
    expect(second.effects).toEqual([]);
  });

  it("typing: the visitor's indicator until now + 15 s, gone with typing false", () => {
    const on = applyFrame(knowing(1), frame({ type: 'typing', data: { chat_id: 1, author: 'visitor', typing: true } }), env());
    expect(on.state.inbox.typing[1]).toBe(1_000_000 + 15_000);
    const off = applyFrame(on.state, frame({ type: 'typing', data: { chat_id: 1, author: 'visitor', typing: false } }), env());
    expect(off.state.inbox.typing[1]).toBeUndefined();
    // An agent typing changes nothing.
    const agent = applyFrame(knowing(1), frame({ type: 'typing', data: { chat_id: 1, author: 'agent', agent_id: 3, typing: true } }), env());
    expect(agent.state).toEqual(knowing(1));
  });

  it('chat.offered to me: the offer set, announced with the seconds left, alerted', () => {
    const waiting = { ...emptyLive(inboxReducer(emptyInbox, { type: 'chat', chat: chat(2) })), known: { 2: true as const } };
    const offered = frame({
      type: 'chat.offered',
      data: { chat_id: 2, agent_id: ME, attempt: 1, expires_at: 1_000_000 + 30_000, department_id: null, mode: 'round_robin', previous_agent_id: null },
      seq: 5,
    });
    const { state, effects } = applyFrame(waiting, offered, env());
    expect(state.inbox.chats[2].offer).toEqual({ agent_id: ME, attempt: 1, expires_at: 1_030_000 });
    expect(effects[0]).toEqual({ type: 'announce', text: expect.stringContaining('30') });
    expect(effects[1]).toMatchObject({ type: 'alert', event: 'new_chat', to: '/chats/2' });
  });

  it('chat.read of mine from another device sets what it left unread; one of another agent is ignored', () => {
    const before = applyFrame(knowing(1), frame({ type: 'message.created', data: { message: message(10, 1) } }), env()).state;
    const read = applyFrame(before, frame({ type: 'chat.read', data: { chat_id: 1, agent_id: ME, last_read_message_id: 10, unread_count: 0 } }), env());
    expect(read.state.inbox.unread[1]).toBeUndefined();
    const other = applyFrame(before, frame({ type: 'chat.read', data: { chat_id: 1, agent_id: 3, last_read_message_id: 10, unread_count: 0 } }), env());
    expect(other.state).toBe(before);
  });

  it('visitor.erased: the chats of that visitor leave the inbox', () => {
    const erased = frame({
      type: 'visitor.erased',
      data: { erasure_id: 1, visitor_id: 101, visitor_number: 1, channel_id: 1, user_token: null, sender_id: null, sender_id_is_number: false },
    });
    expect(applyFrame(knowing(1, 2), erased, env()).state.inbox.chats).not.toHaveProperty('1');
  });

  it('agent.updated and channel.changed are effects for the provider', () => {
    const agent = { id: 3, name: 'Bo' } as never;
    expect(applyFrame(knowing(), frame({ type: 'agent.updated', data: { agent } }), env()).effects).toEqual([{ type: 'agentChanged', agent }]);
    expect(applyFrame(knowing(), frame({ type: 'channel.changed', data: { channel_id: 1, change: 'updated' } }), env()).effects).toEqual([
      { type: 'channelsChanged' },
    ]);
  });

  it('offline_message.created: a live item of the offline list, a badge, an alert; .updated only the item', () => {
    const item = { id: 3, channel_id: 1, message: 'call me' } as unknown as OfflineMessageDto;
    const created = applyFrame(knowing(), frame({ type: 'offline_message.created', data: { offline_message: item } }), env());
    expect(created.state.badges).toEqual({ offline: 1, calls: 0 });
    expect(created.effects[0]).toEqual({ type: 'live', live: { list: 'offline', item } });
    expect(created.effects.map((e) => e.type)).toEqual(['live', 'announce', 'alert']);
    const updated = applyFrame(created.state, frame({ type: 'offline_message.updated', data: { offline_message: item } }), env());
    expect(updated.effects).toEqual([{ type: 'live', live: { list: 'offline', item } }]);
    expect(updated.state.badges.offline).toBe(1);
    // On the offline page itself, nothing is unseen: no badge.
    expect(
      applyFrame(knowing(), frame({ type: 'offline_message.created', data: { offline_message: item } }), env({ page: 'offline' })).state.badges.offline,
    ).toBe(0);
  });

  it('call.updated: a live item of the calls list; a requested one also a badge and an alert', () => {
    const call = (status: CallDto['status']) => ({ id: 8, phone: '+15550100199', status }) as unknown as CallDto;
    const requested = applyFrame(knowing(), frame({ type: 'call.updated', data: { call: call('start'), visitor_id: null } }), env());
    expect(requested.state.badges.calls).toBe(1);
    expect(requested.effects.map((e) => e.type)).toEqual(['live', 'announce', 'alert']);
    const ended = applyFrame(requested.state, frame({ type: 'call.updated', data: { call: call('end'), visitor_id: null } }), env());
    expect(ended.effects).toEqual([{ type: 'live', live: { list: 'calls', item: call('end') } }]);
    expect(ended.state.badges.calls).toBe(1);
  });

  it('a frame without data, or of a kind this client does not know, changes nothing', () => {
    const before = knowing(1);
    expect(applyFrame(before, { type: 'chat.updated', data: null } as unknown as EventFrame, env())).toEqual({ state: before, effects: [] });
    expect(applyFrame(before, { type: 'something.new', data: {} } as unknown as EventFrame, env())).toEqual({ state: before, effects: [] });
  });
});
