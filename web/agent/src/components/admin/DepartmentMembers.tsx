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
import { useSaver } from '../../hooks/useSaver';
import { agentItem, Checks } from './Checks';
import { SaveResult } from './SaveResult';

export function DepartmentMembers({ id, name }: { id: number; name: string }) {
  const { agents } = useAgents();
  const [members, setMembers] = useState<number[] | null>(null);
  const saver = useSaver();
  const { fail, error } = saver;

  useEffect(() => {
    routingApi.members(id).then(
      (m) => setMembers(m.agent_ids),
      (err: unknown) => fail(errorText(err)),
    );
  }, [id, fail]);

  const save = async () => {
    if (!members) return;
    await saver.run(
      async () => {
        const m = await routingApi.setMembers(id, members);
        setMembers(m.agent_ids);
        return m.agent_ids.length;
      },
      (n) => (n === 0 ? t('admin.members.savedNone', { name }) : tn('admin.members.saved', n, { name })),
    );
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
        <Checks name="member" items={list.map(agentItem)} value={members} onChange={setMembers} />
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={members === null} onClick={() => void save()}>
          {t('admin.members.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </fieldset>
  );
}
