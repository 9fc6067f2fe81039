/**
 * Admin settings: data retention (docs/DATA.md "Retention"). After how many
 * days finished chats are erased with everything about them (empty: kept
 * forever), and how many chats the next hourly pass will remove
 * (`retention.chats_due`). Saved with PUT /api/v1/settings {retention}.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { t, tn } from '../../i18n';
import type { SettingsDto } from '../../../../../protocol/agent';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';

function dueText(r: NonNullable<SettingsDto['retention']>): string {
  if (r.chats_days === null) return t('admin.retention.forever');
  return tn('admin.retention.due', r.chats_due, { days: String(r.chats_days) });
}

export function RetentionForm({ settings, onSaved }: { settings: SettingsDto; onSaved: (s: SettingsDto) => void }) {
  const current = settings.retention ?? { chats_days: null, chats_due: 0 };
  const [days, setDays] = useState(current.chats_days === null ? '' : String(current.chats_days));
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chats_days = days.trim() === '' ? null : Number(days);
    void saver.run(
      async () => {
        const next = await api.updateSettings({ retention: { chats_days } });
        onSaved(next);
        return next;
      },
      () => t('admin.saved'),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="retention-title">
      <h2 id="retention-title">{t('admin.retention.title')}</h2>
      <label>
        {t('admin.retention.days')}
        <input
          type="number"
          name="chats_days"
          min={1}
          max={36500}
          step={1}
          placeholder={t('admin.never')}
          aria-describedby="retention-hint retention-due"
          value={days}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      <p id="retention-hint" className="muted small">
        {t('admin.retention.hint')}
      </p>
      <p id="retention-due" role="status">
        {dueText(current)}
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.retention.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
