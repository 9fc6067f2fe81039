/**
 * Admin: which agents belong to one department (ticked = member), saved
 * whole; the save's result ("2 agents in Sales.") or the server's sentence
 * shows next to the Save button.
 */
import { useEffect, useState } from 'react';
import { errorText } from '../../api';
import { useAgents } from '../../context';
import { t, tn } from '../../i18n';
import { routingApi } from '../../routingApi';
import { ErrorText } from './ErrorText';

export function DepartmentMembers({ id, name }: { id: number; name: string }) {
  const { agents } = useAgents();
  const [members, setMembers] = useState<number[] | null>(null);
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    routingApi.members(id).then(
      (m) => setMembers(m.agent_ids),
      (err: unknown) => setError(errorText(err)),
    );
  }, [id]);

  const save = async () => {
    if (!members) return;
    setSaved('');
    setError(null);
    try {
      const m = await routingApi.setMembers(id, members);
      setMembers(m.agent_ids);
      const n = m.agent_ids.length;
      setSaved(n === 0 ? t('admin.members.savedNone', { name }) : tn('admin.members.saved', n, { name }));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const list = Object.values(agents).filter((a) => a.active || members?.includes(a.id));
  return (
    <fieldset className="agent-picker" aria-label={t('admin.members.of', { name })}>
      <legend className="sr-only">{t('admin.members.of', { name })}</legend>
      {members === null ? (
        <p className="muted small">{error ? '' : t('common.loading')}</p>
      ) : list.length === 0 ? (
        <p className="muted small">{t('admin.members.noAgents')}</p>
      ) : (
        list.map((a) => (
          <label key={a.id} className="check">
            <input
              type="checkbox"
              name="member"
              checked={members.includes(a.id)}
              onChange={(e) => setMembers((m) => (m === null ? m : e.target.checked ? [...m, a.id] : m.filter((x) => x !== a.id)))}
            />
            {a.name} <span className="muted small">({a.email})</span>
          </label>
        ))
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={members === null} onClick={() => void save()}>
          {t('admin.members.save')}
        </button>
        <p role="status" className="saved">
          {saved}
        </p>
      </div>
      <ErrorText error={error} />
    </fieldset>
  );
}
