/**
 * The shapes of an account's settings as the domain stores them and the
 * presenters show them: the row, its invitation rules (checked on the way in:
 * domain/settings/widgetRules.ts), chat retention and the event types given
 * up on. The readers of its JSON columns are beside it (callback.ts,
 * notifications.ts, presence.ts, eventTypes.ts).
 */
import type { Selectable } from 'kysely';
import type { EventWebhookGivenUpTable, Settings } from '../db/schema.js';

export type SettingsRow = Settings;

export type GivenUpRow = Selectable<EventWebhookGivenUpTable>;

export interface WidgetRule {
  id: string | number;
  conditions: { seconds_on_page?: number; url_contains?: string; url_matches?: string; min_visits?: number };
  action: { type: 'invitation'; text: string; department_id?: number };
}

export interface WidgetRules {
  rules: WidgetRule[];
}

export interface RetentionSettings {
  /** Finished chats older than this many days are erased; null = kept forever. */
  chats_days: number | null;
  /** The finished chats older than that now: what the next pass removes (0 while chats_days is null). */
  chats_due: number;
}
