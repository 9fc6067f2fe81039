/** Which agents receive a channel's chats; none ticked means every agent of the account. */
import { useAgents } from '../../context';
import { t } from '../../i18n';
import { agentItem, Checks } from './Checks';

export function AgentPicker({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const { agents } = useAgents();
  const list = Object.values(agents).filter((a) => a.active);
  return (
    <fieldset className="agent-picker">
      <legend>{t('admin.agentPicker.legend')}</legend>
      <p className="muted small">{t('admin.agentPicker.none')}</p>
      <Checks name="agent_ids" items={list.map(agentItem)} value={value} onChange={onChange} />
    </fieldset>
  );
}
