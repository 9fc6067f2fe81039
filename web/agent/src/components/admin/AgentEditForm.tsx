/**
 * Admin: edit one agent (PATCH /api/v1/agents/:id): name, e-mail (the
 * sign-in name, changed at once), role and departments. The result shows
 * beside the button; the password is the agent's own (invitation or reset).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t } from '../../i18n';
import type { AgentDto, DepartmentDto } from '../../../../../protocol/agent';
import type { Role } from '../../types';
import { Checks } from './Checks';
import { SaveResult } from './SaveResult';

interface Props {
  agent: AgentDto;
  departments: DepartmentDto[];
  /** The agent is the admin editing: the role cannot be changed here (the last admin would lock everyone out). */
  self: boolean;
  onSaved: (agent: AgentDto) => void;
  onClose: () => void;
}

export function AgentEditForm({ agent, departments, self, onSaved, onClose }: Props) {
  const [name, setName] = useState(agent.name);
  const [email, setEmail] = useState(agent.email);
  const [role, setRole] = useState<Role>(agent.role);
  const [deps, setDeps] = useState<number[]>(agent.department_ids ?? []);
  const saver = useSaver();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), [agent.id]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const changedEmail = email.trim().toLowerCase() !== agent.email;
    void saver.run(
      async () => {
        const next = await api.updateAgent(agent.id, { name, ...(changedEmail ? { email } : {}), ...(self ? {} : { role }), department_ids: deps });
        onSaved(next);
        setName(next.name);
        setEmail(next.email);
        setDeps(next.department_ids ?? []);
        return next;
      },
      (next) => (changedEmail ? t('admin.agentEdit.savedEmail', { name: next.name, email: next.email }) : t('admin.agentEdit.saved', { name: next.name })),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="edit-agent-title" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <h2 id="edit-agent-title">{t('admin.agentEdit.title', { name: agent.name })}</h2>
      <label>
        {t('common.name')}
        <input ref={first} name="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('common.email')}
        <input
          type="email"
          name="email"
          required
          maxLength={320}
          aria-describedby="edit-agent-email-hint"
          value={email}
          onChange={(e) => {
            saver.clear();
            setEmail(e.target.value);
          }}
        />
      </label>
      <span id="edit-agent-email-hint" className="muted small">
        {t('admin.agentEdit.emailHint')}
      </span>
      <label>
        {t('admin.agents.role')}
        <select name="role" value={role} disabled={self} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="agent">{t('admin.agents.roleAgent')}</option>
          <option value="admin">{t('admin.agents.roleAdmin')}</option>
        </select>
      </label>
      {self && <span className="muted small">{t('admin.agentEdit.ownRole')}</span>}
      <fieldset>
        <legend>{t('admin.agents.departments')}</legend>
        {departments.length === 0 ? (
          <p className="muted small">{t('admin.agentEdit.noDepartments')}</p>
        ) : (
          <Checks
            name="department_ids"
            items={departments.map((d) => ({ id: d.id, label: d.name }))}
            value={deps}
            onChange={(ids) => {
              saver.clear();
              setDeps(ids);
            }}
          />
        )}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.agentEdit.save')}
        </button>
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
