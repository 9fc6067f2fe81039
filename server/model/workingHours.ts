/**
 * The shape of working hours for chat (docs/ROUTING.md) as stored in
 * settings.chat_hours_json and departments.hours_json and shown by the admin
 * API, and what they come to at an instant; reading the columns and what the hours mean at an instant are the
 * domain's (domain/workingHours/storedHours.ts, hours.ts).
 */
import type { Weekday } from './callback.js';

export type Range = [string, string];

export interface HoursException {
  /** A local date in the hours' zone, YYYY-MM-DD. */
  date: string;
  /** The ranges of that date instead of its weekday's; [] = closed all day. */
  ranges: Range[];
  /** What the day is ("Christmas"), shown in the admin app; null = nothing said. */
  note: string | null;
}

export interface WorkingHours {
  timezone: string;
  weekly: Partial<Record<Weekday, Range[]>>;
  exceptions: HoursException[];
}

export interface HoursState {
  open: boolean;
  /** When `open` next changes (epoch ms); null = never (always open or always closed from now on, within 400 days). */
  changes_at: number | null;
}

export interface PreviewDay {
  date: string;
  weekday: Weekday;
  ranges: Range[];
  /** Set when an exception decides the day (its note, or "" without one). */
  exception: string | null;
}

/** Open now, the next change and the days ahead (domain/workingHours/hours.ts hoursStatus). */
export interface HoursStatus extends HoursState {
  preview: PreviewDay[];
}
