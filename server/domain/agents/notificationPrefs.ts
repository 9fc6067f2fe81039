/**
 * An agent's own alert preferences (GET/PUT /me/notifications), kept on the
 * server so they follow the person to every browser: a chime (`sound`) at a
 * `volume` (0 to 100), desktop notifications (`desktop`; the browser's own
 * permission is asked in the app), which events alert (`new_chat`,
 * `new_message` in the agent's chats, `transfer` of a chat to the agent) and
 * `muted`, which silences every alert without losing the other choices.
 * Stored as JSON in `agents.notification_prefs_json`; missing keys read as
 * the defaults (everything on, volume 80). A partial change names only the
 * keys it changes; each refusal is a 400 naming the key.
 */
import { invalid } from '../../errors/AppError.js';
import { parseJson, toJson } from '../../lib/json.js';
import type { NotificationPrefsDto } from '../../../protocol/agent.js';

export type NotificationPrefs = NotificationPrefsDto;
export type AlertEvent = keyof NotificationPrefs['events'];

export const DEFAULT_NOTIFICATION_PREFS: NotificationPrefs = {
  sound: true,
  volume: 80,
  desktop: true,
  muted: false,
  events: { new_chat: true, new_message: true, transfer: true },
};

const BOOLEAN_KEYS = ['sound', 'desktop', 'muted'] as const;
const EVENT_KEYS: readonly AlertEvent[] = ['new_chat', 'new_message', 'transfer'];

export interface NotificationPrefsChanges {
  sound?: unknown;
  volume?: unknown;
  desktop?: unknown;
  muted?: unknown;
  events?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored preferences, every key present (missing or corrupt keys read as defaults). */
export function notificationPrefsOf(json: string | null): NotificationPrefs {
  const stored = parseJson<unknown>(json, null);
  const prefs: NotificationPrefs = { ...DEFAULT_NOTIFICATION_PREFS, events: { ...DEFAULT_NOTIFICATION_PREFS.events } };
  if (!isRecord(stored)) return prefs;
  for (const key of BOOLEAN_KEYS) if (typeof stored[key] === 'boolean') prefs[key] = stored[key];
  if (typeof stored.volume === 'number' && Number.isInteger(stored.volume) && stored.volume >= 0 && stored.volume <= 100) prefs.volume = stored.volume;
  if (isRecord(stored.events)) for (const key of EVENT_KEYS) if (typeof stored.events[key] === 'boolean') prefs.events[key] = stored.events[key];
  return prefs;
}

/** `current` with `changes` applied; throws a 400 naming the first bad value. */
export function mergeNotificationPrefs(current: NotificationPrefs, changes: NotificationPrefsChanges): NotificationPrefs {
  const next: NotificationPrefs = { ...current, events: { ...current.events } };
  for (const key of BOOLEAN_KEYS) {
    const v = changes[key];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') throw invalid(`${key} must be true or false.`);
    next[key] = v;
  }
  if (changes.volume !== undefined) {
    const v = changes.volume;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100)
      throw invalid(`volume must be a whole number from 0 to 100 (got ${JSON.stringify(v)?.slice(0, 20)}).`);
    next.volume = v;
  }
  if (changes.events !== undefined) {
    if (!isRecord(changes.events)) throw invalid('events must be an object such as {"new_chat": true}.');
    for (const [key, v] of Object.entries(changes.events)) {
      const name = EVENT_KEYS.find((k) => k === key);
      if (!name) throw invalid(`events may only name ${EVENT_KEYS.join(', ')} (got "${key.slice(0, 40)}").`);
      if (typeof v !== 'boolean') throw invalid(`events.${name} must be true or false.`);
      next.events[name] = v;
    }
  }
  return next;
}

export function storeNotificationPrefs(prefs: NotificationPrefs): string {
  return toJson(prefs);
}
