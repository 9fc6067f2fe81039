/** One invitation rule in the triggers editor: its invitation text, conditions and department. */
import { useId } from 'react';
import { t } from '../../i18n';
import type { DepartmentDto } from '../../../../../protocol/agent';
import { patternProblem, type RuleDraft } from '../../triggers';

/** The arrows of the move buttons: symbols, not words (their names are in aria-label). */
const UP = '↑';
const DOWN = '↓';

interface Props {
  draft: RuleDraft;
  index: number;
  count: number;
  departments: DepartmentDto[];
  onChange: (d: RuleDraft) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}

export function TriggerRuleFields({ draft, index, count, departments, onChange, onRemove, onMove }: Props) {
  const id = useId();
  const name = t('admin.triggers.rule', { n: index + 1 });
  const set = (key: keyof RuleDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  const problem = patternProblem(draft.matches);
  return (
    <li className="card trigger" data-rule-id={draft.id}>
      <fieldset className="form-grid">
        <legend>{name}</legend>
        <label htmlFor={`${id}-text`}>{t('admin.triggers.text')}</label>
        <textarea id={`${id}-text`} rows={2} maxLength={500} required value={draft.text} onChange={set('text')} />
        <div className="trigger-conditions">
          <label>
            {t('admin.triggers.seconds')}
            <input type="number" min={0} max={86400} step={1} value={draft.seconds} onChange={set('seconds')} placeholder={t('admin.triggers.atOnce')} />
          </label>
          <label>
            {t('admin.triggers.contains')}
            <input value={draft.contains} maxLength={2048} onChange={set('contains')} placeholder={t('admin.triggers.containsPlaceholder')} />
          </label>
          <label>
            {t('admin.triggers.matches')}
            <input
              value={draft.matches}
              maxLength={500}
              onChange={set('matches')}
              placeholder={t('admin.triggers.matchesPlaceholder')}
              aria-invalid={problem ? true : undefined}
            />
          </label>
          <label>
            {t('admin.triggers.visits')}
            <input type="number" min={0} step={1} value={draft.visits} onChange={set('visits')} placeholder={t('admin.triggers.anyVisits')} />
          </label>
          <label>
            {t('admin.assignment.department')}
            <select value={draft.department} onChange={set('department')}>
              <option value="">{t('common.none')}</option>
              {departments.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('admin.triggers.id')}
            <input value={draft.id} maxLength={100} required onChange={set('id')} />
          </label>
        </div>
        {problem && (
          <p className="error small" role="alert">
            {t('admin.triggers.problem', { problem })}
          </p>
        )}
        <div className="row">
          <button type="button" disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('admin.triggers.up', { name })}>
            {UP}
          </button>
          <button type="button" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={t('admin.triggers.down', { name })}>
            {DOWN}
          </button>
          <button type="button" className="danger" onClick={onRemove} aria-label={t('admin.triggers.remove', { name })}>
            {t('common.remove')}
          </button>
        </div>
      </fieldset>
    </li>
  );
}
