/**
 * Admin: edit one agent (PATCH /api/v1/agents/:id): name, e-mail (the
 * sign-in name, changed at once), role and departments. The result shows
 * beside the button; the password is the agent's own (invitation or reset).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import type { Agent, Department, Role } from '../../types';
import { ErrorText } from './ErrorText';

interface Props {
  agent: Agent;
  departments: Department[];
  /** The agent is the admin editing: the role cannot be changed here (the last admin would lock everyone out). */
  self: boolean;
  onSaved: (agent: Agent) => void;
  onClose: () => void;
}

export function AgentEditForm({ agent, departments, self, onSaved, onClose }: Props) {
  const [name, setName] = useState(agent.name);
  const [email, setEmail] = useState(agent.email);
  const [role, setRole] = useState<Role>(agent.role);
  const [deps, setDeps] = useState<number[]>(agent.department_ids ?? []);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), [agent.id]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setSaved('');
    setError(null);
    try {
      const changedEmail = email.trim().toLowerCase() !== agent.email;
      const next = await api.updateAgent(agent.id, { name, ...(changedEmail ? { email } : {}), ...(self ? {} : { role }), department_ids: deps });
      onSaved(next);
      setName(next.name);
      setEmail(next.email);
      setDeps(next.department_ids ?? []);
      setSaved(
        changedEmail
          ? `Saved ${next.name}: signs in as ${next.email} from now on. A pending invitation or reset link no longer works; send a new one if needed.`
          : `Saved ${next.name}.`,
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="edit-agent-title" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <h2 id="edit-agent-title">Edit {agent.name}</h2>
      <label>
        Name
        <input ref={first} name="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        E-mail
        <input
          type="email"
          name="email"
          required
          maxLength={320}
          aria-describedby="edit-agent-email-hint"
          value={email}
          onChange={(e) => {
            setSaved('');
            setEmail(e.target.value);
          }}
        />
      </label>
      <span id="edit-agent-email-hint" className="muted small">
        The sign-in name and where password links and notification mails go. It changes at once, without a confirmation mail.
      </span>
      <label>
        Role
        <select name="role" value={role} disabled={self} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="agent">Agent</option>
          <option value="admin">Admin</option>
        </select>
      </label>
      {self && <span className="muted small">Another administrator changes your own role.</span>}
      <fieldset>
        <legend>Departments</legend>
        {departments.length === 0 ? (
          <p className="muted small">No departments yet: add them under Departments.</p>
        ) : (
          departments.map((d) => (
            <label key={d.id} className="check">
              <input
                type="checkbox"
                name="department_ids"
                value={d.id}
                checked={deps.includes(d.id)}
                onChange={(e) => {
                  setSaved('');
                  setDeps((list) => (e.target.checked ? [...list, d.id] : list.filter((id) => id !== d.id)));
                }}
              />
              {d.name}
            </label>
          ))
        )}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save agent
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
        <span role="status" className="saved">
          {saved}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
