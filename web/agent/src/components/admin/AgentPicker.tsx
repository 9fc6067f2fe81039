/** Which agents receive a channel's chats; none ticked means every agent of the account. */
import { useAgents } from '../../context';
import { t } from '../../i18n';

export function AgentPicker({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const { agents } = useAgents();
  const list = Object.values(agents).filter((a) => a.active);
  return (
    <fieldset className="agent-picker">
      <legend>{t('admin.agentPicker.legend')}</legend>
      <p className="muted small">{t('admin.agentPicker.none')}</p>
      {list.map((a) => (
        <label key={a.id} className="check">
          <input
            type="checkbox"
            name="agent_ids"
            value={a.id}
            checked={value.includes(a.id)}
            onChange={(e) => onChange(e.target.checked ? [...value, a.id] : value.filter((id) => id !== a.id))}
          />
          {a.name} <span className="muted small">({a.email})</span>
        </label>
      ))}
    </fieldset>
  );
}
