/**
 * Admin: add an agent (POST /api/v1/agents), with a password, or invited by
 * mail to choose their own; the result beside the button, saying where the
 * invitation is when no mail is sent (kept on the Mail page, its link to copy there).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import type { Agent, Role } from '../../types';
import { SaveResult, useSaver } from './SaveResult';

const EMPTY = { name: '', email: '', password: '', role: 'agent' as Role, phone: '' };

/** What became of an invitation: on its way, or (no SMTP_URL) kept on the Mail page, where its link is to copy. */
export const invitationNote = (name: string, email: string, mailSent: boolean | null): string =>
  mailSent === false
    ? `This server sends no mail (SMTP_URL is not set), so the invitation to ${email} is only kept on the Mail page: open Admin → Mail, copy its link there and give it to ${name} yourself.`
    : `An invitation is on its way to ${email}.`;

export function AgentForm({ onCreated, mailSent }: { onCreated: (agent: Agent, invited: boolean) => void; mailSent: boolean | null }) {
  const [form, setForm] = useState(EMPTY);
  const saver = useSaver();
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { password, ...rest } = form;
    const invited = password === '';
    const agent = await saver.run(
      () => api.createAgent({ ...rest, ...(invited ? {} : { password }), phone: form.phone.trim() || null }),
      (a) =>
        invited
          ? mailSent === false
            ? `Added ${a.name}. The invitation is not sent (no SMTP_URL): it is kept on the Mail page, with its link to copy.`
            : `Added ${a.name}. ${invitationNote(a.name, a.email, mailSent)}`
          : `Added ${a.name}.`,
    );
    if (agent) {
      onCreated(agent, invited);
      setForm(EMPTY);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="new-agent">
      <h2 id="new-agent">Add an agent</h2>
      <label>
        Name
        <input name="name" required maxLength={200} value={form.name} onChange={set('name')} />
      </label>
      <label>
        E-mail
        <input type="email" name="email" required value={form.email} onChange={set('email')} />
      </label>
      <label>
        Password (optional)
        <input
          type="password"
          name="password"
          minLength={8}
          autoComplete="new-password"
          aria-describedby="new-agent-password-hint"
          value={form.password}
          onChange={set('password')}
        />
        <span id="new-agent-password-hint" className="muted small">
          {mailSent === false
            ? 'Leave it empty to invite them instead: without SMTP_URL the invitation is kept on the Mail page, with its link to copy and hand over.'
            : 'Leave it empty to send an invitation instead: the agent chooses their own.'}
        </span>
      </label>
      <label>
        Phone (optional)
        <input type="tel" name="phone" value={form.phone} onChange={set('phone')} />
      </label>
      <label>
        Role
        <select name="role" value={form.role} onChange={set('role')}>
          <option value="agent">Agent</option>
          <option value="admin">Admin</option>
        </select>
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {form.password === '' ? 'Invite agent' : 'Add agent'}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
