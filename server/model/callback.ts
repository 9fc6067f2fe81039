/**
 * The callback settings as stored (settings.callback_json) and read back with
 * every key present. Below the domain and the presenters, which both read them.
 */
import type { Settings } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** Names of the built-in call providers; "agent_dialled": the agent rings the visitor and reports statuses. */
export const CALL_PROVIDER_NAMES = ['agent_dialled'] as const;
export type CallProviderName = (typeof CALL_PROVIDER_NAMES)[number];

export interface CallbackSettings {
  enabled: boolean;
  balance_seconds: number;
  timezone: string;
  /** mon..sun → list of ["HH:MM","HH:MM"]; null = always open. */
  hours: Partial<Record<Weekday, [string, string][]>> | null;
  /** Who places callback calls (domain/calls/providers). */
  provider: CallProviderName;
}

export const DEFAULT_CALLBACK: CallbackSettings = { enabled: false, balance_seconds: 0, timezone: 'UTC', hours: null, provider: 'agent_dialled' };

/** The stored callback settings, every key present (missing or corrupt keys read as defaults). */
export function callbackOf(row: Pick<Settings, 'callback_json'>): CallbackSettings {
  const stored = parseJson<Partial<CallbackSettings>>(row.callback_json, {});
  return { ...DEFAULT_CALLBACK, ...(typeof stored === 'object' && stored !== null ? stored : {}) };
}
