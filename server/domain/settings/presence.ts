/**
 * Presence settings (`presence` in the settings API): the status of agents
 * who never chose one (`default_status`: online, away or offline; default
 * online), which they get when they open the app, and after how many minutes
 * without activity in the app an online agent turns Away
 * (`away_after_idle_minutes`, 0 = never, the default). A partial change names
 * only the keys it changes; `null` returns a key to its default.
 */
import type { Updateable } from 'kysely';
import type { SettingsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { AGENT_STATUSES } from '../../model/presence.js';
// The reading of the stored columns is below the domain (the presenters read it too).
export { AGENT_STATUSES, DEFAULT_PRESENCE, presenceOf, type AgentStatusName, type PresenceSettings } from '../../model/presence.js';

export interface PresenceChanges {
  default_status?: string | null;
  away_after_idle_minutes?: number | null;
}

/** A day: longer than any working shift. */
export const MAX_IDLE_MINUTES = 24 * 60;

/** The columns a change sets; throws a 400 naming the first bad value. */
export function presenceColumns(changes: PresenceChanges | null): Updateable<SettingsTable> {
  if (changes === null) return { default_agent_status: null, away_after_idle_minutes: null };
  const set: Updateable<SettingsTable> = {};
  if (changes.default_status !== undefined) {
    const s = changes.default_status;
    if (s === null) set.default_agent_status = null;
    else {
      const status = AGENT_STATUSES.find((x) => x === s);
      if (!status) throw invalid(`presence.default_status must be one of "online", "away", "offline" (got "${s.slice(0, 40)}").`);
      set.default_agent_status = status;
    }
  }
  if (changes.away_after_idle_minutes !== undefined) {
    const m = changes.away_after_idle_minutes;
    if (m !== null && (!Number.isInteger(m) || m < 0 || m > MAX_IDLE_MINUTES)) {
      throw invalid(`presence.away_after_idle_minutes must be a whole number of minutes from 0 (never) to ${MAX_IDLE_MINUTES} (got ${m}).`);
    }
    set.away_after_idle_minutes = m;
  }
  return set;
}
