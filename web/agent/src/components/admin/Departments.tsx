/** Admin: departments — add, rename, remove, and which agents belong to each; each result beside its button. */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { t } from '../../i18n';
import type { DepartmentDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { DepartmentMembers } from './DepartmentMembers';
import { ErrorText } from './ErrorText';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';

function DepartmentRow({ dept, onChanged, onRemoved }: { dept: DepartmentDto; onChanged: (d: DepartmentDto) => void; onRemoved: () => void }) {
  const [name, setName] = useState(dept.name);
  const saver = useSaver();
  return (
    <li className="row">
      <label className="grow">
        <span className="sr-only">{t('admin.departments.nameOf', { name: dept.name })}</span>
        <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </label>
      <button
        type="button"
        disabled={name.trim() === dept.name}
        onClick={() => void saver.run(async () => onChanged(await api.renameDepartment(dept.id, name)), t('admin.departments.renamed', { name: name.trim() }))}
      >
        {t('admin.departments.rename')}
      </button>
      <button
        type="button"
        className="danger"
        onClick={() =>
          void saver.run(async () => {
            await api.deleteDepartment(dept.id);
            onRemoved();
          }, '')
        }
      >
        {t('common.remove')}
      </button>
      <SaveResult saver={saver} />
      <details className="grow-full">
        <summary>{t('admin.members.of', { name: dept.name })}</summary>
        <DepartmentMembers id={dept.id} name={dept.name} />
      </details>
    </li>
  );
}

export function Departments() {
  const list = useList<DepartmentDto>(() => api.departments());
  const [name, setName] = useState('');
  const saver = useSaver();

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const created = await saver.run(
      () => api.createDepartment(name),
      (d) => t('admin.departments.added', { name: d.name }),
    );
    if (created) {
      list.upsert(created);
      setName('');
    }
  };

  return (
    <section className="page" aria-labelledby="departments-title">
      <h1 id="departments-title">{t('admin.departments.title')}</h1>
      <form className="card row" onSubmit={add}>
        <label className="grow">
          {t('admin.departments.new')}
          <input name="department" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('common.add')}
        </button>
        <SaveResult saver={saver} />
      </form>
      <ErrorText error={list.error} />
      {list.items.length === 0 && !list.loading ? (
        <p className="muted">{t('admin.departments.empty')}</p>
      ) : (
        <ul className="plain">
          {list.items.map((d) => (
            <DepartmentRow key={d.id} dept={d} onChanged={list.upsert} onRemoved={() => list.setItems((all) => all.filter((x) => x.id !== d.id))} />
          ))}
        </ul>
      )}
    </section>
  );
}
