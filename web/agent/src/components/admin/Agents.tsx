/** Admin: the account's agents — add one, change a role, deactivate or reactivate. */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { useApp } from '../../context';
import type { Agent, Role } from '../../types';
import { useList } from '../useList';
import { AgentForm } from './AgentForm';
import { ErrorText } from './ErrorText';

export function Agents() {
  const { me, reloadAgents } = useApp();
  const list = useList<Agent>(() => api.agents());
  const [error, setError] = useState<string | null>(null);

  const change = async (agent: Agent, changes: { role?: Role; active?: boolean }) => {
    setError(null);
    try {
      list.upsert(await api.updateAgent(agent.id, changes));
      reloadAgents();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" aria-labelledby="agents-title">
      <h1 id="agents-title">Agents</h1>
      <AgentForm
        onCreated={(a) => {
          list.upsert(a);
          reloadAgents();
        }}
      />
      <ErrorText error={error ?? list.error} />
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Agents of the account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Account</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => (
              <tr key={a.id} className={a.active ? '' : 'inactive'}>
                <th scope="row">{a.name}</th>
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
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
