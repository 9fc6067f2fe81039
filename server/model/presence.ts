/**
 * The presence settings as stored (settings.default_agent_status,
 * away_after_idle_minutes) and read back with the defaults filled in; the
 * rules of a change are the domain's (domain/settings/presence.ts).
 */
import type { SettingsTable } from '../db/schema.js';

export type AgentStatusName = 'online' | 'away' | 'offline';
export const AGENT_STATUSES: readonly AgentStatusName[] = ['online', 'away', 'offline'];

export interface PresenceSettings {
  default_status: AgentStatusName;
  away_after_idle_minutes: number;
}

export const DEFAULT_PRESENCE: PresenceSettings = { default_status: 'online', away_after_idle_minutes: 0 };

export function presenceOf(row: Pick<SettingsTable, 'default_agent_status' | 'away_after_idle_minutes'>): PresenceSettings {
  return {
    default_status: AGENT_STATUSES.find((s) => s === row.default_agent_status) ?? DEFAULT_PRESENCE.default_status,
    away_after_idle_minutes: row.away_after_idle_minutes ?? DEFAULT_PRESENCE.away_after_idle_minutes,
  };
}
