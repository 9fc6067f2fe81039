/**
 * Offers in the agent app: the inbox keeps who a waiting chat is offered to
 * from the API's `offer` and moves it with chat.offered frames by sequence
 * number (an older copy never undoes a newer move; a frame's chat, which has
 * no `offer`, keeps the one known); the countdown's words; a refused Decline
 * in the screen's words; the countdown's words in another language's plural forms.
 */

// setLanguage sets <html lang dir>: a stand-in document is enough here.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { setLanguage } from './i18n';
import { emptyInbox, inboxReducer, type InboxState } from './inbox';
import { declineRefusal, liveOffer, nextExpiry, timeLeft, timeLeftWords } from './offers';
import type { ChatDto, ChatOfferDto } from '../../../protocol/agent';

const chat = (seq: number, extra: Partial<ChatDto> = {}): ChatDto =>
  ({ id: 1, status: 'pending', channel_id: 1, department_id: null, agent_ids: [], accepted_by: null, seq, created_at: 0, updated_at: 0, ...extra }) as ChatDto;
const offer = (agent_id: number, attempt: number, expires_at = 30_000): ChatOfferDto => ({ agent_id, attempt, expires_at });

describe('offers in the inbox', () => {
  const listed: InboxState = inboxReducer(emptyInbox, { type: 'chats', chats: [chat(3, { offer: offer(7, 1) })] });

  it("keeps the list row's offer, and a frame's chat (no offer) keeps it too", () => {
    expect(listed.chats[1].offer).toEqual(offer(7, 1));
    const framed = inboxReducer(listed, { type: 'chat', chat: chat(4) });
    expect(framed.chats[1].offer).toEqual(offer(7, 1));
    expect(framed.chats[1].seq).toBe(4);
  });

  it('moves it with a newer chat.offered frame, never with an older one', () => {
    const moved = inboxReducer(listed, { type: 'offered', chatId: 1, offer: offer(8, 2), seq: 5 });
    expect(moved.chats[1].offer).toEqual(offer(8, 2));
    expect(moved.chats[1].seq).toBe(5);
    expect(inboxReducer(moved, { type: 'offered', chatId: 1, offer: offer(7, 1), seq: 3 }).chats[1].offer).toEqual(offer(8, 2));
    // An API answer read before the move does not bring the old offer back.
    expect(inboxReducer(moved, { type: 'chat', chat: chat(4, { offer: offer(7, 1) }) }).chats[1].offer).toEqual(offer(8, 2));
  });

  it('drops it when the chat stops waiting, and ignores offers of chats it does not know', () => {
    expect(inboxReducer(listed, { type: 'chat', chat: chat(4, { status: 'active', accepted_by: 8 }) }).chats[1].offer).toBeNull();
    expect(inboxReducer(emptyInbox, { type: 'offered', chatId: 1, offer: offer(7, 1), seq: 2 })).toBe(emptyInbox);
  });

  it('forgets an offer this agent declined, unless it moved on already', () => {
    expect(inboxReducer(listed, { type: 'declined', chatId: 1, attempt: 1 }).chats[1].offer).toBeNull();
    const moved = inboxReducer(listed, { type: 'offered', chatId: 1, offer: offer(8, 2), seq: 5 });
    expect(inboxReducer(moved, { type: 'declined', chatId: 1, attempt: 1 })).toBe(moved);
  });
});

describe('offer display', () => {
  it('is live while the chat waits and the time has not run out', () => {
    expect(liveOffer(chat(1, { offer: offer(7, 1, 1000) }), 999)).toEqual(offer(7, 1, 1000));
    expect(liveOffer(chat(1, { offer: offer(7, 1, 1000) }), 1000)).toBeNull();
    expect(liveOffer(chat(1, { offer: offer(7, 1, 1000), status: 'active' }), 0)).toBeNull();
    expect(liveOffer(chat(1, { offer: null }), 0)).toBeNull();
  });

  it("finds the moment the list's next live offer runs out, for the rows to shrink back then", () => {
    const chats = [
      chat(1, { offer: offer(7, 1, 5000) }),
      chat(1, { offer: offer(8, 1, 2000) }),
      chat(1, { offer: offer(9, 1, 1000), status: 'active' }),
      chat(1, { offer: null }),
    ];
    expect(nextExpiry(chats, 0)).toBe(2000);
    expect(nextExpiry(chats, 2000)).toBe(5000);
    expect(nextExpiry(chats, 5000)).toBeNull();
    expect(nextExpiry([], 0)).toBeNull();
  });

  it('counts down in minutes and seconds, rounded up', () => {
    expect(timeLeft(29_001)).toBe('0:30');
    expect(timeLeft(30_000)).toBe('0:30');
    expect(timeLeft(545_000)).toBe('9:05');
    expect(timeLeft(-5)).toBe('0:00');
    expect(timeLeftWords(1000)).toBe('1 second');
    expect(timeLeftWords(27_000)).toBe('27 seconds');
    expect(timeLeftWords(120_000)).toBe('2 minutes');
    expect(timeLeftWords(61_000)).toBe('1 minute 1 second');
  });

  it("says a 409 to Decline in the screen's words, other refusals as the app does", () => {
    const refusal = new ApiError(409, 'conflict', 'This chat is not offered to you (any more): it may have gone to another agent.');
    expect(declineRefusal(refusal)).toBe(
      'This chat is no longer offered to you: its time ran out or it went to another agent, so there is nothing to decline. It stays in Waiting: press Reply to take it.',
    );
    expect(declineRefusal(new ApiError(404, 'not_found', 'The chat was not found.'))).toBe('The chat was not found.');
  });
});

describe("offer words in the agent's language", () => {
  afterEach(() => setLanguage('en'));

  it('counts down with the plural forms each language needs', async () => {
    await setLanguage('ru');
    expect(timeLeftWords(21_000)).toBe('21 секунда');
    expect(timeLeftWords(22_000)).toBe('22 секунды');
    expect(timeLeftWords(25_000)).toBe('25 секунд');
    expect(timeLeftWords(61_000)).toBe('1 минута 1 секунда');
    await setLanguage('ar');
    expect(timeLeftWords(2000)).toBe('ثانيتان');
    expect(timeLeftWords(120_000)).toBe('دقيقتان');
    await setLanguage('de');
    expect(declineRefusal(new ApiError(409, 'conflict', 'x'))).toMatch(/^Dieser Chat wird Ihnen nicht mehr angeboten/);
  });
});
