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
import { toJson } from '../../lib/json.js';
import { DEFAULT_EVENT_TYPES, isEventName, type EventTypeSettings } from '../../model/eventTypes.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../model/webhookEventNames.js';
// The reading of the stored column is below the domain (the presenters read it too).
export { DEFAULT_EVENT_TYPES, eventTypesOf, type EventTypeSettings } from '../../model/eventTypes.js';

export type EventTypeChanges = Record<string, boolean | null> | null;

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
