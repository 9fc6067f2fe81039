/**
 * Which event types an account's event webhooks send, as stored
 * (settings.event_webhook_types_json: the admin's choices over the defaults,
 * so a type added later starts at its own default) and read back; the rules
 * of a change are the domain's (domain/settings/eventTypes.ts).
 */
import type { SettingsTable } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from './webhookEventNames.js';

export type EventTypeSettings = Record<WebhookEventName, boolean>;

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

export const isEventName = (name: string): name is WebhookEventName => (WEBHOOK_EVENT_NAMES as readonly string[]).includes(name);

/** Every type with whether it is sent (stored choices over the defaults; a corrupt value reads as the defaults). */
export function eventTypesOf(row: Pick<SettingsTable, 'event_webhook_types_json'>): EventTypeSettings {
  const stored = parseJson<unknown>(row.event_webhook_types_json, null);
  const out = { ...DEFAULT_EVENT_TYPES };
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return out;
  for (const [name, on] of Object.entries(stored)) if (isEventName(name) && typeof on === 'boolean') out[name] = on;
  return out;
}
