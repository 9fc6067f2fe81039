/**
 * Which event types an account's event webhooks send (`event_webhook_types`
 * in the settings API): every type of the spec is on and the opt-in extras
 * (OPT_IN_EVENT_NAMES: chat_started, chat_missed, chat_rated, visitor_erased) are off until an admin changes
 * them. A partial change names only the types it switches; `null` returns to
 * the defaults. Stored as the admin's choices over the defaults, so a type
 * added later starts at its own default.
 */
import type { Updateable } from 'kysely';
import type { SettingsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { parseJson, toJson } from '../../lib/json.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../presenters/webhook/types.js';

export type EventTypeSettings = Record<WebhookEventName, boolean>;

export type EventTypeChanges = Record<string, boolean | null> | null;

/** The spec's types on, the extras (OPT_IN_EVENT_NAMES) off. */
export const DEFAULT_EVENT_TYPES: Readonly<EventTypeSettings> = {
  chat_accepted: true,
  chat_assigned: true,
  chat_updated: true,
  chat_finished: true,
  offline_message: true,
  call_event: true,
  chat_started: false,
  chat_missed: false,
  chat_rated: false,
  visitor_erased: false,
};

const isEventName = (name: string): name is WebhookEventName => (WEBHOOK_EVENT_NAMES as readonly string[]).includes(name);

/** Every type with whether it is sent (stored choices over the defaults; a corrupt value reads as the defaults). */
export function eventTypesOf(row: Pick<SettingsTable, 'event_webhook_types_json'>): EventTypeSettings {
  const stored = parseJson<unknown>(row.event_webhook_types_json, null);
  const out = { ...DEFAULT_EVENT_TYPES };
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return out;
  for (const [name, on] of Object.entries(stored)) if (isEventName(name) && typeof on === 'boolean') out[name] = on;
  return out;
}

/** The column after a change, and the types it switched off; throws a 400 naming an unknown type. */
export function eventTypeColumns(
  current: EventTypeSettings,
  changes: EventTypeChanges,
): { set: Updateable<SettingsTable>; next: EventTypeSettings; switchedOff: WebhookEventName[] } {
  let next: EventTypeSettings;
  if (changes === null) next = { ...DEFAULT_EVENT_TYPES };
  else {
    next = { ...current };
    for (const [name, on] of Object.entries(changes)) {
      if (!isEventName(name)) {
        throw invalid(`event_webhook_types may only name the event types ${WEBHOOK_EVENT_NAMES.join(', ')} (got "${name.slice(0, 40)}").`);
      }
      next[name] = on ?? DEFAULT_EVENT_TYPES[name];
    }
  }
  const choices = Object.fromEntries(WEBHOOK_EVENT_NAMES.filter((n) => next[n] !== DEFAULT_EVENT_TYPES[n]).map((n) => [n, next[n]]));
  const switchedOff = WEBHOOK_EVENT_NAMES.filter((n) => current[n] && !next[n]);
  return { set: { event_webhook_types_json: Object.keys(choices).length === 0 ? null : toJson(choices) }, next, switchedOff };
}
