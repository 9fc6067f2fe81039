/**
 * The first sign-in with the password generated at the first start (printed
 * in the server's log): before anything else the owner gives their real
 * e-mail (it replaces admin@localhost.localdomain, so "Forgot password?" and
 * notification mails reach them), the company's name (what mails, the
 * widget and the header say) and their own password (POST /api/v1/me/first-run,
 * all three together). The generated password typed at sign-in is kept in
 * memory for this; after a reload it is asked for again. Signing out stays possible.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText, type FirstRun } from '../api';
import { setAccountName } from '../accountName';
import type { Agent } from '../types';

export function FirstRunPage({
  state,
  generatedPassword,
  onDone,
  onSignOut,
}: {
  state: FirstRun;
  generatedPassword?: string;
  onDone: (me: Agent) => void;
  onSignOut: () => void;
}) {
  const placeholder = state.email.endsWith('.localdomain');
  const [form, setForm] = useState({ current: '', email: placeholder ? '' : state.email, company: state.account_name, password: '', repeat: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (form.password !== form.repeat) return setError('The two passwords differ; type the same password twice.');
    if (form.password.length < 8) return setError('Your password needs at least 8 characters.');
    if (form.company.trim() === '') return setError("Enter your company's name, as visitors and mails should show it.");
    setBusy(true);
    try {
      await api.completeFirstRun({
        current_password: generatedPassword ?? form.current,
        email: form.email,
        account_name: form.company,
        new_password: form.password,
      });
      setAccountName(form.company);
      onDone(await api.me());
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <main className="center-page">
      <form className="card login first-run" onSubmit={submit} aria-labelledby="first-run-title">
        <h1 id="first-run-title">Welcome to Parley</h1>
        <p className="muted">
          You signed in with the password printed when the server first started. Tell Parley who you are before you begin: it writes to this address (a
          forgotten password, offline messages, callback requests) and signs its mails and the chat window with your company&apos;s name.
        </p>
        {generatedPassword === undefined && (
          <label>
            The password from the server&apos;s log
            <input type="password" name="current_password" autoComplete="current-password" required value={form.current} onChange={set('current')} />
          </label>
        )}
        <label>
          Your e-mail address
          <input
            type="email"
            name="email"
            required
            maxLength={320}
            autoComplete="email"
            placeholder="you@your-company.com"
            aria-describedby="first-run-email-hint"
            value={form.email}
            onChange={set('email')}
          />
        </label>
        <span id="first-run-email-hint" className="muted small">
          Your sign-in name from now on{placeholder ? `, in place of ${state.email}` : ''}.
        </span>
        <label>
          Company name
          <input
            name="account_name"
            required
            maxLength={100}
            autoComplete="organization"
            placeholder="Acme Bikes"
            aria-describedby="first-run-company-hint"
            value={form.company}
            onChange={set('company')}
          />
        </label>
        <span id="first-run-company-hint" className="muted small">
          Mails say &quot;Sent by Parley for …&quot; with it, visitors see it on the chat window. You can change it in Admin → Settings.
        </span>
        <label>
          New password
          <input
            type="password"
            name="new_password"
            autoComplete="new-password"
            required
            minLength={8}
            aria-describedby="first-run-password-hint"
            value={form.password}
            onChange={set('password')}
          />
        </label>
        <span id="first-run-password-hint" className="muted small">
          At least 8 characters. The printed password stops working.
        </span>
        <label>
          The same password again
          <input type="password" name="new_password_again" autoComplete="new-password" required value={form.repeat} onChange={set('repeat')} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save and start'}
        </button>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </form>
    </main>
  );
}
