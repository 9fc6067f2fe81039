/**
 * The app's own shapes, beside those of the API and the stream, which come
 * from protocol/ (agent.ts, routing.ts, widget.ts: shared with the server's
 * presenters) under their own names: import those from there.
 */
import type { AgentDto, CallbackSettingsDto } from '../../../protocol/agent';
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
