/**
 * The event_names event webhooks carry (spec C "Events", docs/EVENTS.md):
 * the settings store which of them an account sends (eventTypes.ts), the
 * webhook bodies are typed by them (presenters/webhook/types.ts).
 */

/** The event_names of the spec (sent unless an admin switches them off). */
export const SPEC_EVENT_NAMES = ['chat_accepted', 'chat_assigned', 'chat_updated', 'chat_finished', 'offline_message', 'call_event'] as const;

/** Events beyond the spec, sent only when an admin switches them on (receivers that refuse unknown names never see them). */
export const OPT_IN_EVENT_NAMES = ['chat_started', 'chat_missed', 'chat_rated', 'visitor_erased'] as const;

/** Every event_name an event webhook carries (docs/EVENTS.md has a section for each; a test keeps them equal). */
export const WEBHOOK_EVENT_NAMES = [...SPEC_EVENT_NAMES, ...OPT_IN_EVENT_NAMES] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];
