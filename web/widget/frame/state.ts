/**
 * The chat frame's state (one immutable object, replaced on every change) and
 * a tiny store with subscribe, which the Preact views read through useStore.
 */
import { DEFAULT_APPEARANCE, type WidgetAppearance } from '../../../protocol/widget';
import type { CallbackAvailability, ContactInfo, WidgetAgent, WidgetChat, WidgetDepartment, WidgetMessage, WidgetSettings } from '../../../protocol/widget';

export interface PendingMessage {
  key: number;
  text?: string;
  file_name?: string;
  status: 'sending' | 'failed';
  error?: string;
}

export interface Invitation {
  text: string;
  department_id?: number;
}

export interface CallState {
  id?: number;
  status: string;
  reason?: string;
  /** The number the visitor asked to be called at. */
  phone?: string;
}

export interface UiState {
  phase: 'starting' | 'ready' | 'gone';
  open: boolean;
  /** Full screen (the loader says so on phone-width pages). */
  full: boolean;
  /** What the open window shows: the chat, or the callback form. */
  view: 'chat' | 'call';
  /** The contacts form over the chat. */
  contactsOpen: boolean;
  online: boolean;
  connected: boolean;
  number: number | null;
  contact: ContactInfo;
  /** The visitor's open chat, or the last finished one, or null before the first message. */
  chat: Omit<WidgetChat, 'messages'> | null;
  /** Every message the visitor may see, by id. */
  messages: WidgetMessage[];
  pending: PendingMessage[];
  agentTyping: WidgetAgent | null;
  invitation: Invitation | null;
  unread: number;
  offlineSent: boolean;
  color: string | null;
  /** How the admin wants the widget to look and speak. */
  appearance: WidgetAppearance;
  /** The company's name ("" while not set): the window's title when the appearance sets none. */
  account_name: string;
  /** The default launcher is shown (an admin may hide it: the page opens the chat from its own button). */
  launcher: boolean;
  callback: CallbackAvailability | null;
  /** The callback hours (settings), said in the callback form while no agent is online. */
  callbackHours: WidgetSettings['callback_hours'] | null;
  call: CallState | null;
  /** A short message for the visitor (a file too big, a send that failed). */
  notice: string | null;
  /** Why the server takes no offline message now (its limit): sendOfflineMessage answers a fail with it meanwhile. */
  offlineHold: string | null;
  /** Whether the visitor picks a department before the first message (the widget's setting), the departments, and the pick. */
  departmentChoice: 'off' | 'optional' | 'required';
  departments: WidgetDepartment[];
  department: number | null;
}

export const emptyContact = (): ContactInfo => ({ client_name: null, email: null, phone: null, description: null });

export const initialState = (): UiState => ({
  phase: 'starting',
  open: false,
  full: false,
  view: 'chat',
  contactsOpen: false,
  online: false,
  connected: false,
  number: null,
  contact: emptyContact(),
  chat: null,
  messages: [],
  pending: [],
  agentTyping: null,
  invitation: null,
  unread: 0,
  offlineSent: false,
  color: null,
  appearance: DEFAULT_APPEARANCE,
  account_name: '',
  launcher: true,
  callback: null,
  callbackHours: null,
  call: null,
  notice: null,
  offlineHold: null,
  departmentChoice: 'off',
  departments: [],
  department: null,
});

export class Store {
  state: UiState = initialState();
  private readonly listeners = new Set<() => void>();

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  set(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }
}

/** `base` with the non-empty strings of `given` (trimmed) written over it: an empty value never erases. */
export function mergeContact(base: ContactInfo, given: Partial<ContactInfo>): ContactInfo {
  const out = { ...base };
  for (const k of ['client_name', 'email', 'phone', 'description'] as const) {
    const v = given[k];
    if (typeof v === 'string' && v.trim()) out[k] = v.trim();
  }
  return out;
}

/** Messages merged by id (a replayed or echoed message is kept once), in id order. */
export function mergeMessages(list: WidgetMessage[], add: WidgetMessage[]): WidgetMessage[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of add) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Whether the visitor is asked for a department now: before the first message of a chat, unless an invitation brought one. */
export const asksDepartment = (s: Pick<UiState, 'departmentChoice' | 'departments' | 'chat' | 'invitation'>): boolean =>
  s.departmentChoice !== 'off' && s.departments.length > 0 && !chatOpen(s.chat) && s.invitation?.department_id === undefined;

/** Whether the chat is still going on (a visitor can be answered in it). */
export const chatOpen = (chat: UiState['chat']): boolean => chat !== null && chat.status !== 'finished';
