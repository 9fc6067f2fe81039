/**
 * Settings: the widget's invitation rules (triggers) for the whole account —
 * docs/WIDGET.md "Invitation rules". The first rule whose conditions all hold
 * shows its invitation, so order matters. Saved with PUT /settings {rules}
 * (null when the list is empty); the server checks the format.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t } from '../../i18n';
import type { DepartmentDto, SettingsDto, WidgetRulesDto } from '../../../../../protocol/agent';
import { newDraft, toDrafts, toRules, type RuleDraft } from '../../triggers';
import { SaveResult } from './SaveResult';
import { TriggerRuleFields } from './TriggerRuleFields';

export const MAX_RULES = 50;

export function TriggersForm({ rules, onSaved }: { rules: WidgetRulesDto | null | undefined; onSaved: (settings: SettingsDto) => void }) {
  const [drafts, setDrafts] = useState<RuleDraft[]>(() => toDrafts(rules));
  const [departments, setDepartments] = useState<DepartmentDto[]>([]);
  const saver = useSaver();

  useEffect(() => {
    api.departments().then(setDepartments, () => setDepartments([]));
  }, []);
  // Rules saved (here or elsewhere) come back from the server: show them as stored.
  const stored = JSON.stringify(rules ?? null);
  useEffect(() => setDrafts(toDrafts(JSON.parse(stored) as WidgetRulesDto | null)), [stored]);

  const update = (key: number, next: RuleDraft) => setDrafts((all) => all.map((d) => (d.key === key ? next : d)));
  const move = (index: number, by: -1 | 1) =>
    setDrafts((all) => {
      const copy = [...all];
      const [item] = copy.splice(index, 1);
      copy.splice(index + by, 0, item);
      return copy;
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => onSaved(await api.updateSettings({ rules: toRules(drafts) })),
      () => t('admin.triggers.saved'),
    );
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby="triggers-title">
      <h2 id="triggers-title">{t('admin.triggers.title')}</h2>
      <p className="muted small">{t('admin.triggers.hint')}</p>
      {drafts.length === 0 ? (
        <p className="muted">{t('admin.triggers.empty')}</p>
      ) : (
        <ol className="cards">
          {drafts.map((d, i) => (
            <TriggerRuleFields
              key={d.key}
              draft={d}
              index={i}
              count={drafts.length}
              departments={departments}
              onChange={(next) => update(d.key, next)}
              onRemove={() => setDrafts((all) => all.filter((x) => x.key !== d.key))}
              onMove={(by) => move(i, by)}
            />
          ))}
        </ol>
      )}
      <div className="form-actions">
        <button type="button" disabled={drafts.length >= MAX_RULES} onClick={() => setDrafts((all) => [...all, newDraft(all)])}>
          {t('admin.triggers.add')}
        </button>
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.triggers.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
