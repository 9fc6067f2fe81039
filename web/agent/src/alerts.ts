/**
 * Alerts, following the agent's own preferences (GET/PUT /me/notifications):
 * a short chime (a WAV made here once, played by an <audio> element at the
 * chosen volume), a desktop notification when the app is not in front (once
 * the browser allows them), and the unread count in the tab title. A new
 * chat rings again every RING_EVERY_MS until someone accepts it (or it is
 * gone), then its ringing and its notification stop, in every agent's app at
 * once (the chat.updated frame). Mute, or an offline agent, hears nothing.
 * Every alert is best effort: a browser that blocks audio or notifications
 * simply gets none.
 */
import { formatNumber } from './i18n';
import type { NotificationPrefsDto } from '../../../protocol/agent';
import type { AgentStatus } from './types';

const BASE_TITLE = 'Parley';
export const RING_EVERY_MS = 5000;

export const DEFAULT_PREFS: NotificationPrefsDto = {
  sound: true,
  volume: 80,
  desktop: true,
  muted: false,
  events: { new_chat: true, new_message: true, transfer: true },
};

export type AlertEvent = keyof NotificationPrefsDto['events'] | 'other';

let prefs: NotificationPrefsDto = DEFAULT_PREFS;
let status: AgentStatus = 'online';
let chimeUrl: string | null = null;
const ringing = new Map<number, number>();
/** The chats the agent holds (accepted by it): only their messages alert as "new message in my chats". */
let mine: ReadonlySet<number> | null = null;
const shown = new Map<string, Notification>();

/** The signed-in agent's preferences and status, as they change. */
export function configureAlerts(next: { prefs?: NotificationPrefsDto; status?: AgentStatus }): void {
  if (next.prefs) prefs = next.prefs;
  if (next.status) status = next.status;
  if (prefs.muted || !prefs.events.new_chat || status === 'offline') stopAllRinging();
}

function wants(event: AlertEvent): boolean {
  if (prefs.muted || status === 'offline') return false;
  return event === 'other' || prefs.events[event];
}

/** A two-note chime as a 16-bit mono WAV, made once. */
function chimeSource(): string {
  if (chimeUrl) return chimeUrl;
  const rate = 22050;
  const length = Math.floor(rate * 0.45);
  const buffer = new ArrayBuffer(44 + length * 2);
  const view = new DataView(buffer);
  const text = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + length * 2, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, length * 2, true);
  for (let i = 0; i < length; i++) {
    const t = i / rate;
    const freq = t < 0.12 ? 880 : 1318.5;
    const envelope = Math.min(1, t / 0.02) * Math.exp(-6 * t);
    view.setInt16(44 + i * 2, Math.round(Math.sin(2 * Math.PI * freq * t) * envelope * 0.4 * 32767), true);
  }
  chimeUrl = URL.createObjectURL(new Blob([buffer], { type: 'audio/wav' }));
  return chimeUrl;
}

/** The chime at the agent's volume (also the Profile page's "Test the sound"). */
export function playChime(volume = prefs.volume): void {
  try {
    const audio = new Audio(chimeSource());
    audio.volume = Math.min(1, Math.max(0, volume / 100));
    void audio.play()?.catch(() => {});
  } catch {
    // no sound
  }
}

export function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

export async function requestNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** A desktop notification when allowed, wanted and the tab is not in front; clicking it focuses the app. */
function notify(title: string, body: string, tag: string, onClick: () => void): void {
  if (!prefs.desktop || !notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  try {
    const n = new Notification(title, { body, tag });
    shown.get(tag)?.close();
    shown.set(tag, n);
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
    n.onclose = () => {
      if (shown.get(tag) === n) shown.delete(tag);
    };
  } catch {
    // some platforms only allow notifications from a service worker
  }
}

/**
 * What the inbox says now: the chats still waiting (any other one stops
 * ringing: accepted or gone while the stream was away) and the agent's own.
 */
export function followInbox(pending: ReadonlySet<number>, own: ReadonlySet<number>): void {
  mine = own;
  for (const id of [...ringing.keys()]) if (!pending.has(id)) stopRinging(id);
}

/** Whether a visitor's message in this chat is one of "my chats" (unknown before the inbox is followed: yes). */
export function isMine(chatId: number): boolean {
  return mine === null || mine.has(chatId);
}

/** One alert of an event: the chime and a desktop notification, as the agent chose. */
export function alertOf(event: AlertEvent, title: string, body: string, tag: string, onClick: () => void): void {
  if (!wants(event)) return;
  if (prefs.sound) playChime();
  notify(title, body, tag, onClick);
}

/** A new chat waits: alert now and ring again until stopRinging (someone accepted it). */
export function ringFor(chatId: number, title: string, body: string, onClick: () => void): void {
  if (!wants('new_chat') || ringing.has(chatId)) return;
  alertOf('new_chat', title, body, `chat-${chatId}`, onClick);
  ringing.set(
    chatId,
    window.setInterval(() => {
      if (wants('new_chat') && prefs.sound) playChime();
    }, RING_EVERY_MS),
  );
}

/** Whether a waiting chat is ringing (its first messages need no alert of their own). */
export function isRinging(chatId: number): boolean {
  return ringing.has(chatId);
}

/** The chat is accepted (or gone): its ringing and its notification stop. */
export function stopRinging(chatId: number): void {
  const timer = ringing.get(chatId);
  if (timer !== undefined) window.clearInterval(timer);
  ringing.delete(chatId);
  const tag = `chat-${chatId}`;
  shown.get(tag)?.close();
  shown.delete(tag);
}

export function stopAllRinging(): void {
  for (const id of [...ringing.keys()]) stopRinging(id);
}

export function setTitleCount(count: number): void {
  document.title = count > 0 ? `(${formatNumber(count)}) ${BASE_TITLE}` : BASE_TITLE;
}
