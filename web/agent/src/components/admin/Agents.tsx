/** Admin: the account's agents — add or invite one (without SMTP_URL: kept on the Mail page, its link to copy there), edit one (name, e-mail, role, departments), resend an invitation, force a password reset, deactivate or reactivate; each result on its agent's row. */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { useSession, useAgents } from '../../context';
import { t } from '../../i18n';
import type { AgentDto, DepartmentDto } from '../../../../../protocol/agent';
import type { Role } from '../../types';
import { Link } from '../../router';
import { useList } from '../useList';
import { AgentEditForm } from './AgentEditForm';
import { AgentForm, invitationNote } from './AgentForm';
import { ErrorText } from './ErrorText';

export function Agents() {
  const { me } = useSession();
  const { reloadAgents } = useAgents();
  const list = useList<AgentDto>(() => api.agents());
  const departments = useList<DepartmentDto>(() => api.departments());
  const depName = new Map(departments.items.map((d) => [d.id, d.name]));
  const [editing, setEditing] = useState<number | null>(null);
  const edited = list.items.find((a) => a.id === editing);
  /** A refused change of role or account, shown on its agent's row (beside the control), not above the table. */
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);
  /** What the last invitation or reset did, shown on its agent's row. */
  const [sent, setSent] = useState<{ id: number; text: string } | null>(null);
  // Whether this server sends mail (SMTP_URL): without it invitations are only kept on the Mail page.
  const [mailSent, setMailSent] = useState<boolean | null>(null);
  useEffect(() => {
    api.mailStatus().then(
      (s) => setMailSent(s.smtp),
      () => setMailSent(null),
    );
  }, []);

  const sendLink = async (agent: AgentDto, kind: 'invite' | 'reset') => {
    setRowError(null);
    setSent(null);
    if (kind === 'reset' && !window.confirm(t('admin.agents.resetConfirm', { name: agent.name }))) return;
    try {
      const res = kind === 'invite' ? await api.inviteAgent(agent.id) : await api.forcePasswordReset(agent.id);
      const vars = { email: res.sent_to, name: agent.name };
      const kept = mailSent === false;
      setSent({
        id: agent.id,
        text:
          kind === 'invite'
            ? t(kept ? 'admin.agents.inviteKept' : 'admin.agents.inviteSent', vars)
            : t(kept ? 'admin.agents.resetKept' : 'admin.agents.resetSent', vars),
      });
    } catch (err) {
      setRowError({ id: agent.id, text: errorText(err) });
    }
  };

  const change = async (agent: AgentDto, changes: { role?: Role; active?: boolean }) => {
    setRowError(null);
    try {
      list.upsert(await api.updateAgent(agent.id, changes));
      reloadAgents();
    } catch (err) {
      setRowError({ id: agent.id, text: errorText(err) });
    }
  };

  return (
    <section className="page" aria-labelledby="agents-title">
      <h1 id="agents-title">{t('admin.agents.title')}</h1>
      <AgentForm
        onCreated={(a, invited) => {
          list.upsert(a);
          reloadAgents();
          setSent(invited ? { id: a.id, text: invitationNote(a.name, a.email, mailSent) } : null);
        }}
        mailSent={mailSent}
      />
      {edited && (
        <AgentEditForm
          key={edited.id}
          agent={edited}
          departments={departments.items}
          self={edited.id === me.id}
          onSaved={(a) => {
            list.upsert(a);
            reloadAgents();
          }}
          onClose={() => setEditing(null)}
        />
      )}
      <ErrorText error={list.error} />
      <div className="table-wrap">
        <table>
          <caption className="sr-only">{t('admin.agents.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.name')}</th>
              <th scope="col">{t('common.email')}</th>
              <th scope="col">{t('admin.agents.role')}</th>
              <th scope="col">{t('admin.agents.departments')}</th>
              <th scope="col">{t('admin.agents.status')}</th>
              <th scope="col">{t('admin.agents.account')}</th>
              <th scope="col">{t('common.password')}</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => (
              <tr key={a.id} className={a.active ? '' : 'inactive'}>
                <th scope="row">
                  <div className="row">
                    {a.name}
                    <button
                      type="button"
                      aria-label={t('admin.agents.editLabel', { name: a.name })}
                      aria-expanded={editing === a.id}
                      onClick={() => setEditing(a.id)}
                    >
                      {t('common.edit')}
                    </button>
                  </div>
                </th>
                <td>{a.email}</td>
                <td>
                  <select
                    aria-label={t('admin.agents.roleOf', { name: a.name })}
                    value={a.role}
                    disabled={a.id === me.id}
                    onChange={(e) => void change(a, { role: e.target.value as Role })}
                  >
                    <option value="agent">{t('admin.agents.roleAgent')}</option>
                    <option value="admin">{t('admin.agents.roleAdmin')}</option>
                  </select>
                </td>
                <td>
                  {(a.department_ids ?? []).length === 0 ? (
                    <span className="muted small">{t('admin.agents.noDepartment')}</span>
                  ) : (
                    (a.department_ids ?? []).map((id) => depName.get(id) ?? `#${id}`).join(t('admin.listSeparator'))
                  )}
                </td>
                <td>{t(`admin.agents.status.${a.status}`)}</td>
                <td>
                  {a.id === me.id ? (
                    <span className="muted small">{t('admin.agents.you')}</span>
                  ) : (
                    <button type="button" onClick={() => void change(a, { active: !a.active })}>
                      {a.active ? t('admin.agents.deactivate') : t('admin.agents.reactivate')}
                    </button>
                  )}
                </td>
                <td>
                  {a.id !== me.id && a.active && (
                    <div className="row">
                      <button type="button" onClick={() => void sendLink(a, 'invite')} aria-label={t('admin.agents.inviteLabel', { name: a.name })}>
                        {t('admin.agents.invite')}
                      </button>
                      <button type="button" onClick={() => void sendLink(a, 'reset')} aria-label={t('admin.agents.resetLabel', { name: a.name })}>
                        {t('admin.agents.reset')}
                      </button>
                    </div>
                  )}
                  {sent?.id === a.id && (
                    <p className="saved small" role="status">
                      {sent.text}
                      {mailSent === false && (
                        <>
                          {' '}
                          <Link href="/admin/mail">{t('admin.agents.openMail')}</Link>
                        </>
                      )}
                    </p>
                  )}
                  {rowError?.id === a.id && <ErrorText error={rowError.text} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
