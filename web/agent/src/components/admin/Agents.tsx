/** Admin: the account's agents — add or invite one (without SMTP_URL: kept on the Mail page, its link to copy there), edit one (name, e-mail, role, departments), resend an invitation, force a password reset, deactivate or reactivate; each result on its agent's row. */
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { useApp } from '../../context';
import type { Agent, Department, Role } from '../../types';
import { Link } from '../../router';
import { useList } from '../useList';
import { AgentEditForm } from './AgentEditForm';
import { AgentForm, invitationNote } from './AgentForm';
import { ErrorText } from './ErrorText';

export function Agents() {
  const { me, reloadAgents } = useApp();
  const list = useList<Agent>(() => api.agents());
  const departments = useList<Department>(() => api.departments());
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

  const sendLink = async (agent: Agent, kind: 'invite' | 'reset') => {
    setRowError(null);
    setSent(null);
    if (kind === 'reset' && !window.confirm(`Force a password reset for ${agent.name}? Their password stops working and they are signed out everywhere.`))
      return;
    try {
      const res = kind === 'invite' ? await api.inviteAgent(agent.id) : await api.forcePasswordReset(agent.id);
      const what = kind === 'invite' ? 'invitation' : 'password-reset link';
      setSent({
        id: agent.id,
        text:
          mailSent === false
            ? `No mail is sent from this server (SMTP_URL is not set): the ${what} for ${res.sent_to} is kept on the Mail page. Copy its link there and give it to ${agent.name} yourself.`
            : `The ${what} is on its way to ${res.sent_to}.`,
      });
    } catch (err) {
      setRowError({ id: agent.id, text: errorText(err) });
    }
  };

  const change = async (agent: Agent, changes: { role?: Role; active?: boolean }) => {
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
      <h1 id="agents-title">Agents</h1>
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
          <caption className="sr-only">Agents of the account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Departments</th>
              <th scope="col">Status</th>
              <th scope="col">Account</th>
              <th scope="col">Password</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => (
              <tr key={a.id} className={a.active ? '' : 'inactive'}>
                <th scope="row">
                  <div className="row">
                    {a.name}
                    <button type="button" aria-label={`Edit ${a.name}`} aria-expanded={editing === a.id} onClick={() => setEditing(a.id)}>
                      Edit
                    </button>
                  </div>
                </th>
                <td>{a.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${a.name}`}
                    value={a.role}
                    disabled={a.id === me.id}
                    onChange={(e) => void change(a, { role: e.target.value as Role })}
                  >
                    <option value="agent">Agent</option>
                    <option value="admin">Admin</option>
                  </select>
                </td>
                <td>
                  {(a.department_ids ?? []).length === 0 ? (
                    <span className="muted small">none</span>
                  ) : (
                    (a.department_ids ?? []).map((id) => depName.get(id) ?? `#${id}`).join(', ')
                  )}
                </td>
                <td>{a.status}</td>
                <td>
                  {a.id === me.id ? (
                    <span className="muted small">you</span>
                  ) : (
                    <button type="button" onClick={() => void change(a, { active: !a.active })}>
                      {a.active ? 'Deactivate' : 'Reactivate'}
                    </button>
                  )}
                </td>
                <td>
                  {a.id !== me.id && a.active && (
                    <div className="row">
                      <button type="button" onClick={() => void sendLink(a, 'invite')} aria-label={`Send ${a.name} an invitation`}>
                        Send invitation
                      </button>
                      <button type="button" onClick={() => void sendLink(a, 'reset')} aria-label={`Force a password reset for ${a.name}`}>
                        Reset password
                      </button>
                    </div>
                  )}
                  {sent?.id === a.id && (
                    <p className="saved small" role="status">
                      {sent.text}
                      {mailSent === false && (
                        <>
                          {' '}
                          <Link href="/admin/mail">Open the Mail page</Link>
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
