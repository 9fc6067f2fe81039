/** One invitation rule in the triggers editor: its invitation text, conditions and department. */
import { useId } from 'react';
import type { Department } from '../../types';
import { patternProblem, type RuleDraft } from '../../triggers';

interface Props {
  draft: RuleDraft;
  index: number;
  count: number;
  departments: Department[];
  onChange: (d: RuleDraft) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}

export function TriggerRuleFields({ draft, index, count, departments, onChange, onRemove, onMove }: Props) {
  const id = useId();
  const name = `Rule ${index + 1}`;
  const set = (key: keyof RuleDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  const problem = patternProblem(draft.matches);
  return (
    <li className="card trigger" data-rule-id={draft.id}>
      <fieldset className="form-grid">
        <legend>{name}</legend>
        <label htmlFor={`${id}-text`}>Invitation text</label>
        <textarea id={`${id}-text`} rows={2} maxLength={500} required value={draft.text} onChange={set('text')} />
        <div className="trigger-conditions">
          <label>
            After seconds on the page
            <input type="number" min={0} max={86400} step={1} value={draft.seconds} onChange={set('seconds')} placeholder="at once" />
          </label>
          <label>
            URL contains
            <input value={draft.contains} maxLength={2048} onChange={set('contains')} placeholder="/pricing" />
          </label>
          <label>
            URL matches (regular expression)
            <input
              value={draft.matches}
              maxLength={500}
              onChange={set('matches')}
              placeholder="^https://shop\.example\.com/"
              aria-invalid={problem ? true : undefined}
            />
          </label>
          <label>
            At least this many visits
            <input type="number" min={0} step={1} value={draft.visits} onChange={set('visits')} placeholder="any" />
          </label>
          <label>
            Department
            <select value={draft.department} onChange={set('department')}>
              <option value="">None</option>
              {departments.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Rule id
            <input value={draft.id} maxLength={100} required onChange={set('id')} />
          </label>
        </div>
        {problem && (
          <p className="error small" role="alert">
            URL matches: {problem}
          </p>
        )}
        <div className="row">
          <button type="button" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move ${name} up`}>
            ↑
          </button>
          <button type="button" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move ${name} down`}>
            ↓
          </button>
          <button type="button" className="danger" onClick={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}
