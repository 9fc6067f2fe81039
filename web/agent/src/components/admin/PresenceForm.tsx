/**
 * Admin settings: agents' presence. The status agents who never chose one get
 * when they open the app (Online by default, so the widget is online as soon
 * as someone signs in), and after how many minutes without activity in the
 * app an online agent turns Away (empty or 0 = never). Saved with PUT
 * /api/v1/settings {presence}; the result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { t } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { SettingsDto } from '../../../../../protocol/agent';
import type { AgentStatus } from '../../types';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';

const LABEL: Record<AgentStatus, TextKey> = { online: 'admin.presence.online', away: 'admin.presence.away', offline: 'admin.presence.offline' };

function summary(p: NonNullable<SettingsDto['presence']>): string {
  const status = t(LABEL[p.default_status]);
  return p.away_after_idle_minutes === 0
    ? t('admin.presence.savedStay', { status })
    : t('admin.presence.savedAway', { status, minutes: String(p.away_after_idle_minutes) });
}

export function PresenceForm({ settings, onSaved }: { settings: SettingsDto; onSaved: (s: SettingsDto) => void }) {
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
      <h2 id="presence-title">{t('admin.presence.title')}</h2>
      <label>
        {t('admin.presence.default')}
        <select name="default_status" value={status} onChange={(e) => setStatus(e.target.value as AgentStatus)} aria-describedby="default-status-hint">
          <option value="online">{t('admin.presence.online')}</option>
          <option value="away">{t('admin.presence.away')}</option>
          <option value="offline">{t('admin.presence.offline')}</option>
        </select>
      </label>
      <p id="default-status-hint" className="muted small">
        {t('admin.presence.defaultHint')}
      </p>
      <label>
        {t('admin.presence.idle')}
        <input
          type="number"
          name="away_after_idle_minutes"
          min={0}
          max={1440}
          step={1}
          placeholder={t('admin.never')}
          aria-describedby="idle-hint"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
      </label>
      <p id="idle-hint" className="muted small">
        {t('admin.presence.idleHint')}
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.presence.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
