/**
 * Admin: add an agent (POST /api/v1/agents), with a password, or invited by
 * mail to choose their own; the result beside the button, saying where the
 * invitation is when no mail is sent (kept on the Mail page, its link to copy there).
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { t } from '../../i18n';
import type { AgentDto } from '../../../../../protocol/agent';
import type { Role } from '../../types';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';

const EMPTY = { name: '', email: '', password: '', role: 'agent' as Role, phone: '' };

/** What became of an invitation: on its way, or (no SMTP_URL) kept on the Mail page, where its link is to copy. */
export const invitationNote = (name: string, email: string, mailSent: boolean | null): string =>
  mailSent === false ? t('admin.agentForm.invitationKept', { email, name }) : t('admin.agentForm.invitationSent', { email });

export function AgentForm({ onCreated, mailSent }: { onCreated: (agent: AgentDto, invited: boolean) => void; mailSent: boolean | null }) {
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
            ? t('admin.agentForm.addedKept', { name: a.name })
            : t('admin.agentForm.addedInvited', { name: a.name, email: a.email })
          : t('admin.agentForm.added', { name: a.name }),
    );
    if (agent) {
      onCreated(agent, invited);
      setForm(EMPTY);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="new-agent">
      <h2 id="new-agent">{t('admin.agentForm.title')}</h2>
      <label>
        {t('common.name')}
        <input name="name" required maxLength={200} value={form.name} onChange={set('name')} />
      </label>
      <label>
        {t('common.email')}
        <input type="email" name="email" required value={form.email} onChange={set('email')} />
      </label>
      <label>
        {t('admin.agentForm.password')}
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
          {mailSent === false ? t('admin.agentForm.passwordHintKept') : t('admin.agentForm.passwordHint')}
        </span>
      </label>
      <label>
        {t('admin.agentForm.phone')}
        <input type="tel" name="phone" value={form.phone} onChange={set('phone')} />
      </label>
      <label>
        {t('admin.agents.role')}
        <select name="role" value={form.role} onChange={set('role')}>
          <option value="agent">{t('admin.agents.roleAgent')}</option>
          <option value="admin">{t('admin.agents.roleAdmin')}</option>
        </select>
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {form.password === '' ? t('admin.agentForm.invite') : t('admin.agentForm.add')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
