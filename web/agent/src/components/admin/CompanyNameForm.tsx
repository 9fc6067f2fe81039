/**
 * Admin → Settings: the company's name (PUT /api/v1/settings `account_name`),
 * which mails (subjects, "Sent by Parley for …", the sender's name),
 * transcripts, the widget's title and this app's header show. Empty: "Parley"
 * stands in.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { setAccountName } from '../../accountName';
import { t } from '../../i18n';
import type { SettingsDto } from '../../../../../protocol/agent';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';

export function CompanyNameForm({ settings, onSaved }: { settings: SettingsDto; onSaved: (s: SettingsDto) => void }) {
  const [name, setName] = useState(settings.account_name ?? '');
  const saver = useSaver();
  const save = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => {
        const next = await api.updateSettings({ account_name: name.trim() });
        setName(next.account_name ?? '');
        setAccountName(next.account_name ?? '');
        onSaved(next);
        return next;
      },
      (next) => (next.account_name ? t('admin.company.saved', { name: next.account_name }) : t('admin.company.savedEmpty')),
    );
  };
  return (
    <form className="card form-grid" onSubmit={save} aria-labelledby="company-title">
      <h2 id="company-title">{t('admin.company.title')}</h2>
      <label htmlFor="account-name">{t('admin.company.title')}</label>
      <input
        id="account-name"
        name="account_name"
        maxLength={100}
        autoComplete="organization"
        placeholder={t('admin.company.placeholder')}
        aria-describedby="account-name-hint"
        value={name}
        onChange={(e) => {
          saver.clear();
          setName(e.target.value);
        }}
      />
      <p id="account-name-hint" className="muted small">
        {t('admin.company.hint')}
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.company.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
