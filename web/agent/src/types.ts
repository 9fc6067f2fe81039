/**
 * The app's own shapes, beside those of the API and the stream, which come
 * from protocol/ (agent.ts, routing.ts, widget.ts: shared with the server's
 * presenters) under their own names: import those from there.
 */
import type { AgentDto, CallbackSettingsDto, ChannelDto, DepartmentDto, NotificationPrefsDto, SettingsDto, WidgetRulesDto } from '../../../protocol/agent';
import type { Weekday } from '../../../protocol/routing';

export type Role = AgentDto['role'];
export type AgentStatus = AgentDto['status'];

/** One custom-data field as the page (setCustomData) or the chat_accepted answer gives it. */
export interface CustomDataField {
  title?: string;
  content?: string;
  link?: string;
  key?: string;
}

/** Callback hours as the admin's form sends them (each range its text split at "-"; the server checks them). */
export type CallbackHours = Partial<Record<Weekday, string[][]>>;

/** Callback settings as the form edits and sends them (PUT /api/v1/settings `callback`): the protocol's, hours as sent. */
export interface CallbackSettings extends Omit<CallbackSettingsDto, 'hours'> {
  hours: CallbackHours | null;
}

/**
 * The names the admin and profile forms still read, while they are converted
 * to the shared saver (issue #34) by another change: each is the protocol's
 * shape, not a second one. Import the protocol's names elsewhere.
 */
export type Agent = AgentDto;
export type Department = DepartmentDto;
export type Settings = SettingsDto;

export type Channel = ChannelDto;
export type WidgetRules = WidgetRulesDto;
export type NotificationPrefs = NotificationPrefsDto;
