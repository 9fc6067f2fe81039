/**
 * Admin → Settings: the company's name (PUT /api/v1/settings `account_name`),
 * which mails (subjects, "Sent by Parley for …", the sender's name),
 * transcripts, the widget's title and this app's header show. Empty: "Parley"
 * stands in.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { setAccountName } from '../../accountName';
import type { Settings } from '../../types';
import { SaveResult, useSaver } from './SaveResult';

export function CompanyNameForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
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
      (next) => (next.account_name ? `Saved: mails and the widget now say "${next.account_name}".` : 'Saved: no company name, so "Parley" stands in.'),
    );
  };
  return (
    <form className="card form-grid" onSubmit={save} aria-labelledby="company-title">
      <h2 id="company-title">Company name</h2>
      <label htmlFor="account-name">Company name</label>
      <input
        id="account-name"
        name="account_name"
        maxLength={100}
        autoComplete="organization"
        placeholder="Acme Bikes"
        aria-describedby="account-name-hint"
        value={name}
        onChange={(e) => {
          saver.clear();
          setName(e.target.value);
        }}
      />
      <p id="account-name-hint" className="muted small">
        Up to 100 characters. Mails say it (&quot;Your conversation with …&quot;, &quot;Sent by Parley for …&quot;, and as the sender&apos;s name), and so do
        transcripts, the widget&apos;s title (unless a widget sets its own) and this app&apos;s header. Empty: &quot;Parley&quot;.
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          Save name
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
