/**
 * Input rules of the account settings: a partial change names only the keys
 * it changes, `null` clears a key (callback keys return to their defaults;
 * `hours: null` = always open). Each refusal is a 400 saying what is wrong.
 */
import type { RetentionChanges } from './chatRetention.js';
import type { Config } from '../../config/config.js';
import { invalid } from '../../errors/AppError.js';
import { WEEKDAYS, isTimeZone, minutesOf } from './callbackHours.js';
import { CALL_PROVIDER_NAMES, DEFAULT_CALLBACK, ENABLED_CALLBACK_BALANCE, type CallbackSettings, type CallProviderName, type Weekday } from './settingsRow.js';
import type { EventTypeChanges } from './eventTypes.js';
import type { NotificationChanges } from './notifications.js';
import type { PresenceChanges } from './presence.js';
import type { HoursChange } from '../workingHours/mergeHours.js';
import { checkHttpUrl, checkOutboundUrl } from './urls.js';

export type Hours = NonNullable<CallbackSettings['hours']>;

export interface CallbackChanges {
  enabled?: boolean | null;
  balance_seconds?: number | null;
  timezone?: string | null;
  hours?: Record<string, string[][]> | null;
  provider?: string | null;
}

export interface SettingsChanges {
  /** The company's name (accounts.name, domain/accounts/accountName.ts); "" or null clears it. */
  account_name?: string | null;
  event_webhook_url?: string | null;
  safe_url?: string | null;
  callback?: CallbackChanges | null;
  /** Widget invitation rules (docs/WIDGET.md), checked by widgetRules.ts; null clears them. */
  rules?: unknown;
  /** Where notification mails go, the missed-chat delay, the archive address (notifications.ts). */
  notifications?: NotificationChanges | null;
  /** The status of agents who never chose one, the idle delay before Away (presence.ts). */
  presence?: PresenceChanges | null;
  /** Working hours for chat (workingHours/mergeHours.ts); null = always open. */
  chat_hours?: HoursChange;
  /** Event types switched on (true) or off (false); null returns every type to its default (eventTypes.ts). */
  event_webhook_types?: EventTypeChanges;
  /** Chat retention: `chats_days` (chatRetention.ts); null keeps chats forever. */
  retention?: RetentionChanges | null;
}

const MAX_RANGES_PER_DAY = 48;
const MAX_BALANCE = 10 ** 12;

/** An empty string clears a URL like null does. */
export function cleanEventWebhookUrl(config: Pick<Config, 'outboundAllowPrivate'>, value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  return checkOutboundUrl(config, 'event_webhook_url', value);
}

export function cleanSafeUrl(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  return checkHttpUrl('safe_url', value).url;
}

/** The callback settings after applying `changes` to `current`. */
export function mergeCallback(current: CallbackSettings, changes: CallbackChanges | null): CallbackSettings {
  if (changes === null) return { ...DEFAULT_CALLBACK };
  const next = { ...current };
  if (changes.enabled !== undefined) next.enabled = changes.enabled ?? DEFAULT_CALLBACK.enabled;
  if (changes.balance_seconds !== undefined) next.balance_seconds = cleanBalance(changes.balance_seconds);
  if (changes.timezone !== undefined) next.timezone = cleanTimeZone(changes.timezone);
  if (changes.hours !== undefined) next.hours = cleanHours(changes.hours);
  if (changes.provider !== undefined) next.provider = cleanProvider(changes.provider);
  // Switching callbacks on with no call time left and none named would leave the widget saying
  // "Calls are not available right now": they start with ENABLED_CALLBACK_BALANCE instead.
  if (next.enabled && !current.enabled && changes.balance_seconds === undefined && next.balance_seconds === 0) {
    next.balance_seconds = ENABLED_CALLBACK_BALANCE;
  }
  return next;
}

function cleanProvider(value: string | null): CallProviderName {
  if (value === null) return DEFAULT_CALLBACK.provider;
  const name = CALL_PROVIDER_NAMES.find((p) => p === value);
  if (!name) throw invalid(`callback.provider must be one of ${CALL_PROVIDER_NAMES.map((p) => `"${p}"`).join(', ')} (got "${value.slice(0, 40)}").`);
  return name;
}

function cleanBalance(value: number | null): number {
  if (value === null) return DEFAULT_CALLBACK.balance_seconds;
  if (!Number.isInteger(value) || value < 0 || value > MAX_BALANCE) {
    throw invalid(`callback.balance_seconds must be a whole number of seconds, 0 or more (got ${value}).`);
  }
  return value;
}

/** A known IANA zone, stored in its canonical spelling. */
function cleanTimeZone(value: string | null): string {
  if (value === null) return DEFAULT_CALLBACK.timezone;
  const zone = value.trim();
  if (zone === '' || !isTimeZone(zone)) {
    throw invalid(`callback.timezone must be an IANA time zone such as Europe/Berlin or America/New_York (got "${value.slice(0, 60)}").`);
  }
  return new Intl.DateTimeFormat(undefined, { timeZone: zone }).resolvedOptions().timeZone;
}

export function cleanHours(value: Record<string, string[][]> | null): Hours | null {
  if (value === null) return null;
  const hours: Hours = {};
  for (const [key, ranges] of Object.entries(value)) {
    if (!WEEKDAYS.includes(key as Weekday)) {
      throw invalid(`callback.hours may only name the days ${WEEKDAYS.join(', ')} (got "${key.slice(0, 20)}").`);
    }
    if (ranges.length > MAX_RANGES_PER_DAY) throw invalid(`callback.hours.${key} may hold at most ${MAX_RANGES_PER_DAY} ranges.`);
    hours[key as Weekday] = ranges.map((range, i) => cleanRange(`callback.hours.${key}[${i}]`, range));
  }
  return hours;
}

function cleanRange(where: string, range: string[]): [string, string] {
  const shape = `${where} must be a range ["HH:MM","HH:MM"] with 00:00 ≤ start < end ≤ 24:00`;
  if (range.length !== 2) throw invalid(`${shape}.`);
  const [start, end] = range;
  const s = minutesOf(start);
  const e = minutesOf(end);
  if (s === null || e === null) throw invalid(`${shape} (got ${JSON.stringify(range).slice(0, 60)}).`);
  if (s >= e) throw invalid(`${shape}: its start must come before its end (got ${JSON.stringify(range)}).`);
  return [start, end];
}
