/**
 * Admin: canned responses — ready-made replies agents insert by typing
 * `/shortcut` in the composer. Add, change (shortcut, title, text) and remove.
 */
import { useId, useState, type FormEvent } from 'react';
import { api, errorText, type CannedResponseFields } from '../../api';
import { forgetCannedResponses, MESSAGE_LIMIT } from '../../canned';
import { t } from '../../i18n';
import type { CannedResponseDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { ConfirmButton } from './ConfirmButton';
import { ErrorText } from './ErrorText';

const EMPTY: CannedResponseFields = { shortcut: '', title: '', text: '' };

/** Shortcut, title and text inputs, shared by the add form and each row. */
function CannedFields({ value, onChange, of }: { value: CannedResponseFields; onChange: (v: CannedResponseFields) => void; of?: string }) {
  const id = useId();
  const set = (key: keyof CannedResponseFields) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <div className="form-grid">
      <label htmlFor={`${id}-shortcut`}>{of ? t('admin.canned.shortcutOf', { shortcut: of }) : t('admin.canned.shortcut')}</label>
      <input
        id={`${id}-shortcut`}
        name="shortcut"
        required
        maxLength={33}
        placeholder={t('admin.canned.shortcutPlaceholder')}
        value={value.shortcut}
        onChange={set('shortcut')}
      />
      <label htmlFor={`${id}-title`}>{of ? t('admin.canned.titleOf', { shortcut: of }) : t('admin.canned.titleField')}</label>
      <input id={`${id}-title`} name="title" required maxLength={200} value={value.title} onChange={set('title')} />
      <label htmlFor={`${id}-text`}>{of ? t('admin.canned.textOf', { shortcut: of }) : t('admin.canned.text')}</label>
      <textarea id={`${id}-text`} name="text" required rows={3} maxLength={2000} value={value.text} onChange={set('text')} />
      <p className="muted small">
        {t('admin.canned.length', { length: String(value.text.length), max: '2000' })}
        {value.text.length > MESSAGE_LIMIT && t('admin.canned.tooLong', { limit: String(MESSAGE_LIMIT) })}
      </p>
    </div>
  );
}

function CannedRow({ item, onChanged, onRemoved }: { item: CannedResponseDto; onChanged: (c: CannedResponseDto) => void; onRemoved: () => void }) {
  const [draft, setDraft] = useState<CannedResponseFields>({ shortcut: item.shortcut, title: item.title, text: item.text });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const dirty = draft.shortcut !== item.shortcut || draft.title !== item.title || draft.text !== item.text;
  const run = async (fn: () => Promise<void>) => {
    setError(null);
    setSaved('');
    try {
      await fn();
      forgetCannedResponses();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const changed = await api.updateCannedResponse(item.id, draft);
      setDraft({ shortcut: changed.shortcut, title: changed.title, text: changed.text });
      onChanged(changed);
      setSaved(t('admin.saved'));
    });
  };
  return (
    <li className="card" data-canned-id={item.id}>
      <form onSubmit={save} aria-label={t('admin.canned.rowLabel', { shortcut: item.shortcut })}>
        <CannedFields value={draft} onChange={setDraft} of={item.shortcut} />
        <div className="row">
          <button type="submit" className="primary" disabled={!dirty}>
            {t('common.save')}
          </button>
          <ConfirmButton
            label={t('common.remove')}
            question={t('admin.canned.removeQuestion', { shortcut: item.shortcut })}
            onConfirm={() =>
              run(async () => {
                await api.deleteCannedResponse(item.id);
                onRemoved();
              })
            }
          />
          <span role="status" className="saved small">
            {saved}
          </span>
        </div>
        <ErrorText error={error} />
      </form>
    </li>
  );
}

export function CannedResponses() {
  const list = useList<CannedResponseDto>(() => api.cannedResponses());
  const [draft, setDraft] = useState<CannedResponseFields>(EMPTY);
  const [error, setError] = useState<string | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      list.upsert(await api.createCannedResponse(draft));
      forgetCannedResponses();
      setDraft(EMPTY);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const sorted = [...list.items].sort((a, b) => a.shortcut.localeCompare(b.shortcut));
  return (
    <section className="page" aria-labelledby="canned-title">
      <h1 id="canned-title">{t('admin.canned.title')}</h1>
      <p className="muted">{t('admin.canned.intro')}</p>
      <form className="card" onSubmit={add} aria-label={t('admin.canned.addLabel')}>
        <h2>{t('admin.canned.newTitle')}</h2>
        <CannedFields value={draft} onChange={setDraft} />
        <div className="row">
          <button type="submit" className="primary">
            {t('admin.canned.add')}
          </button>
        </div>
        <ErrorText error={error} />
      </form>
      <ErrorText error={list.error} />
      {sorted.length === 0 && !list.loading ? (
        <p className="muted">{t('admin.canned.empty')}</p>
      ) : (
        <ul className="cards">
          {sorted.map((c) => (
            <CannedRow key={c.id} item={c} onChanged={list.upsert} onRemoved={() => list.setItems((all) => all.filter((x) => x.id !== c.id))} />
          ))}
        </ul>
      )}
    </section>
  );
}
