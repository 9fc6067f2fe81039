/**
 * Request schema of PUT /api/v1/settings: every key optional (a partial change
 * names only what it changes), `null` clears. `webhook_secret` is read-only:
 * it is accepted and ignored, so a settings object read with GET can be sent
 * back as is; POST /settings/webhook-secret/rotate issues a new one.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const Nullable = <T extends TSchema>(t: T, options: { description?: string } = {}) => Type.Union([t, Type.Null()], options);

const Range = Type.Array(Type.String({ maxLength: 5 }), { description: '["HH:MM","HH:MM"], start included, end excluded; 00:00 ≤ start < end ≤ 24:00.' });

export const CallbackBody = Type.Object(
  {
    enabled: Type.Optional(Nullable(Type.Boolean(), { description: 'Callbacks are off until an admin enables them.' })),
    balance_seconds: Type.Optional(Nullable(Type.Integer(), { description: 'Call time left, in whole seconds, 0 or more; 0 = none.' })),
    timezone: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'IANA time zone of hours, e.g. Europe/Berlin (default UTC).' }))),
    hours: Type.Optional(
      Nullable(Type.Record(Type.String(), Type.Array(Range, { maxItems: 48 })), {
        description: 'mon…sun → list of ranges; a missing day is closed; null = always open.',
      }),
    ),
    provider: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'Who places callback calls: "agent_dialled" (the default and only one: the agent rings the visitor and reports statuses).',
        }),
      ),
    ),
  },
  { additionalProperties: true },
);

export const NotificationsBody = Type.Object(
  {
    emails: Type.Optional(
      Nullable(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20 }), {
        description: 'Where offline messages, callback requests and missed chats are mailed; empty or null = every active admin.',
      }),
    ),
    missed_chat_minutes: Type.Optional(
      Nullable(Type.Integer(), { description: 'Minutes (1 to 1440) a chat may wait unaccepted before the missed-chat mail; null = no such mail.' }),
    ),
    archive_email: Type.Optional(
      Nullable(Type.String({ maxLength: 320 }), { description: "Every finished chat's transcript is mailed here; null = nowhere." }),
    ),
  },
  { additionalProperties: true },
);

export const PresenceBody = Type.Object(
  {
    default_status: Type.Optional(
      Nullable(Type.String({ maxLength: 16 }), {
        description: 'online, away or offline: the status agents who never chose one get when they open the app (default online); null = online.',
      }),
    ),
    away_after_idle_minutes: Type.Optional(
      Nullable(Type.Integer(), { description: 'Minutes (0 to 1440) without activity in the app before an online agent turns Away; 0 or null = never.' }),
    ),
  },
  { additionalProperties: true },
);

/** Working hours for chat: a partial object too (docs/ROUTING.md). */
export const ChatHoursBody = Type.Object(
  {
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone of the hours, e.g. Europe/Berlin.' })),
    weekly: Type.Optional(
      Type.Record(Type.String(), Type.Array(Range, { maxItems: 48 }), { description: 'mon…sun → list of ranges; a missing day is closed.' }),
    ),
    exceptions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            date: Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a local date in the time zone.' }),
            ranges: Type.Array(Range, { maxItems: 48, description: "The hours of that date instead of its weekday's; [] = closed all day." }),
            note: Type.Optional(Nullable(Type.String({ maxLength: 100 }), { description: 'What the day is, e.g. "Christmas".' })),
          },
          { additionalProperties: true },
        ),
        { maxItems: 366 },
      ),
    ),
  },
  { additionalProperties: true },
);

export const SettingsBody = Type.Object(
  {
    account_name: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 1000,
          description:
            'The company\'s name (at most 100 characters, one line): mail subjects, the "Sent by … for …" line and From name, transcripts, the widget\'s default title and the agent app\'s header use it; "" or null clears it ("Parley" stands in).',
        }),
      ),
    ),
    event_webhook_url: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: 'http(s) URL event webhooks are POSTed to.' }))),
    safe_url: Type.Optional(
      Nullable(Type.String({ maxLength: 2048, description: "http(s) URL of the site's own domain; custom-data links elsewhere are hidden." })),
    ),
    webhook_secret: Type.Optional(Type.Unknown({ description: 'Read-only: ignored here.' })),
    callback: Type.Optional(Nullable(CallbackBody, { description: 'Partial too; null resets callbacks to their defaults.' })),
    chat_hours: Type.Optional(
      Nullable(ChatHoursBody, {
        description:
          'Working hours for chat: {timezone, weekly, exceptions}; outside them the widget is offline and /status answers 0. Partial; null = always open.',
      }),
    ),
    notifications: Type.Optional(Nullable(NotificationsBody, { description: 'Partial too; null resets every notification setting.' })),
    presence: Type.Optional(Nullable(PresenceBody, { description: 'Partial too; null resets both presence settings.' })),
    event_webhook_types: Type.Optional(
      Nullable(Type.Record(Type.String({ maxLength: 40 }), Nullable(Type.Boolean())), {
        description:
          'Which event types the event webhooks send: {"<event_name>": true|false, …}, naming only the types to switch (null: that type back to its default). The spec types (chat_accepted, chat_assigned, chat_updated, chat_finished, offline_message, call_event) are on and chat_started, chat_missed, chat_rated off by default; null resets every type. Switching a type off cancels its pending deliveries (status cancelled).',
      }),
    ),
    retention: Type.Optional(
      Nullable(
        Type.Object(
          {
            chats_days: Type.Optional(
              Type.Unknown({
                description:
                  'Finished chats older than this many days (1 to 36500) are erased with everything about them, hourly; null = kept forever (the default). chats_due (read-only) says how many the next pass removes.',
              }),
            ),
          },
          { additionalProperties: true },
        ),
        { description: 'Chat retention (docs/DATA.md "Retention"); null keeps chats forever.' },
      ),
    ),
    rules: Type.Optional(
      Type.Unknown({
        description:
          'Widget invitation rules, {rules: [{id, conditions: {seconds_on_page?, url_contains?, url_matches?, min_visits?}, action: {type: "invitation", text, department_id?}}]} as docs/WIDGET.md describes (at most 50); null clears them.',
      }),
    ),
  },
  { additionalProperties: true },
);
export type SettingsBodyT = Static<typeof SettingsBody>;
export type ChatHoursBodyT = Static<typeof ChatHoursBody>;

/** Path of POST /settings/webhooks/given-up/:event_type/resume: the spec's event name (call_event, chat_accepted …). */
export const EventTypeParams = Type.Object({ event_type: Type.String({ minLength: 1, maxLength: 64, description: 'The event type to send again.' }) });
