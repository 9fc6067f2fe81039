/**
 * Admin settings: agents' presence. The status agents who never chose one get
 * when they open the app (Online by default, so the widget is online as soon
 * as someone signs in), and after how many minutes without activity in the
 * app an online agent turns Away (empty or 0 = never). Saved with PUT
 * /api/v1/settings {presence}; the result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import type { AgentStatus, Settings } from '../../types';
import { SaveResult, useSaver } from './SaveResult';

const LABEL: Record<AgentStatus, string> = { online: 'Online', away: 'Away', offline: 'Offline' };

function summary(p: NonNullable<Settings['presence']>): string {
  const idle = p.away_after_idle_minutes === 0 ? 'agents stay Online while idle' : `idle agents turn Away after ${p.away_after_idle_minutes} min`;
  return `Saved: new agents start ${LABEL[p.default_status]}; ${idle}.`;
}

export function PresenceForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const current = settings.presence ?? { default_status: 'online', away_after_idle_minutes: 0 };
  const [status, setStatus] = useState<AgentStatus>(current.default_status);
  const [minutes, setMinutes] = useState(current.away_after_idle_minutes === 0 ? '' : String(current.away_after_idle_minutes));
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const idle = minutes.trim() === '' ? 0 : Number(minutes);
    void saver.run(
      async () => {
        const next = await api.updateSettings({ presence: { default_status: status, away_after_idle_minutes: idle } });
        onSaved(next);
        return next;
      },
      (next) => summary(next.presence ?? current),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="presence-title">
      <h2 id="presence-title">Agents&apos; status</h2>
      <label>
        Status of agents who never chose one
        <select name="default_status" value={status} onChange={(e) => setStatus(e.target.value as AgentStatus)} aria-describedby="default-status-hint">
          <option value="online">Online</option>
          <option value="away">Away</option>
          <option value="offline">Offline</option>
        </select>
      </label>
      <p id="default-status-hint" className="muted small">
        They get it when they open the app. Agents who chose a status get theirs back every time.
      </p>
      <label>
        Turn an idle agent Away after (minutes)
        <input
          type="number"
          name="away_after_idle_minutes"
          min={0}
          max={1440}
          step={1}
          placeholder="never"
          aria-describedby="idle-hint"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
      </label>
      <p id="idle-hint" className="muted small">
        No key, click or mouse move in the app for that long turns an Online agent Away; the next one brings them back. Empty: never.
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          Save status settings
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
