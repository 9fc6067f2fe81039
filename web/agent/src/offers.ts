/**
 * Offers as the agent app shows them (docs/ROUTING.md "What the agent sees"):
 * whether a waiting chat is someone's turn now, the time left as a countdown,
 * and a refused Decline in the reader's words. Pure, so the list mark, the
 * conversation's offer bar and their tests read offers the same way.
 */
import { ApiError, errorText } from './api';
import { t, tn } from './i18n';
import type { ChatDto, ChatOfferDto } from '../../../protocol/agent';

/** A waiting chat's offer, run out or not; null once the chat stops waiting. */
export function pendingOffer(chat: Pick<ChatDto, 'status' | 'offer'>): ChatOfferDto | null {
  return chat.status === 'pending' ? (chat.offer ?? null) : null;
}

/** The offer a chat is under at `now`: it waits, it is someone's turn, and the time has not run out. */
export function liveOffer(chat: Pick<ChatDto, 'status' | 'offer'>, now: number): ChatOfferDto | null {
  const offer = pendingOffer(chat);
  return offer && offer.expires_at > now ? offer : null;
}

/** The soonest moment (epoch ms) after `now` at which one of these chats' live offers runs out; null when none is live. */
export function nextExpiry(chats: readonly Pick<ChatDto, 'status' | 'offer'>[], now: number): number | null {
  let soonest: number | null = null;
  for (const chat of chats) {
    const offer = liveOffer(chat, now);
    if (offer && (soonest === null || offer.expires_at < soonest)) soonest = offer.expires_at;
  }
  return soonest;
}

/** The time left as minutes and seconds, rounded up ("0:27", "9:05"): a live offer never shows 0:00. */
export function timeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The same, for a screen reader: "27 seconds", "9 minutes 5 seconds". */
export function timeLeftWords(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m === 0) return tn('workspace.offer.seconds', s);
  if (s === 0) return tn('workspace.offer.minutes', m);
  return t('workspace.offer.minutesSeconds', { minutes: tn('workspace.offer.minutes', m), seconds: tn('workspace.offer.seconds', s) });
}

/**
 * A failed Decline in words: the 409 in this screen's terms (the offer is not
 * this agent's any more), anything else as the app says it everywhere.
 */
export function declineRefusal(err: unknown): string {
  if (err instanceof ApiError && err.status === 409) return t('workspace.offer.notOffered');
  return errorText(err);
}
