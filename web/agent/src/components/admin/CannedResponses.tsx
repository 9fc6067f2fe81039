/**
 * Admin: canned responses — ready-made replies agents insert by typing
 * `/shortcut` in the composer. Add, change (shortcut, title, text) and remove.
 */
import { useId, useState, type FormEvent } from 'react';
import { api, errorText, type CannedResponseFields } from '../../api';
import { forgetCannedResponses, MESSAGE_LIMIT } from '../../canned';
import type { CannedResponse } from '../../types';
import { useList } from '../useList';
import { ConfirmButton } from './ConfirmButton';
import { ErrorText } from './ErrorText';

const EMPTY: CannedResponseFields = { shortcut: '', title: '', text: '' };

/** Shortcut, title and text inputs, shared by the add form and each row. */
function CannedFields({ value, onChange, label }: { value: CannedResponseFields; onChange: (v: CannedResponseFields) => void; label: string }) {
  const id = useId();
  const set = (key: keyof CannedResponseFields) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <div className="form-grid">
      <label htmlFor={`${id}-shortcut`}>Shortcut{label}</label>
      <input id={`${id}-shortcut`} name="shortcut" required maxLength={33} placeholder="refund-policy" value={value.shortcut} onChange={set('shortcut')} />
      <label htmlFor={`${id}-title`}>Title{label}</label>
      <input id={`${id}-title`} name="title" required maxLength={200} value={value.title} onChange={set('title')} />
      <label htmlFor={`${id}-text`}>Text{label}</label>
      <textarea id={`${id}-text`} name="text" required rows={3} maxLength={2000} value={value.text} onChange={set('text')} />
      <p className="muted small">
        {value.text.length}/2000
        {value.text.length > MESSAGE_LIMIT && ` — a message holds at most ${MESSAGE_LIMIT} characters, so agents must shorten this one before sending`}
      </p>
    </div>
  );
}

function CannedRow({ item, onChanged, onRemoved }: { item: CannedResponse; onChanged: (c: CannedResponse) => void; onRemoved: () => void }) {
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
      setSaved('Saved.');
    });
  };
  return (
    <li className="card" data-canned-id={item.id}>
      <form onSubmit={save} aria-label={`Canned response /${item.shortcut}`}>
        <CannedFields value={draft} onChange={setDraft} label={` of /${item.shortcut}`} />
        <div className="row">
          <button type="submit" className="primary" disabled={!dirty}>
            Save
          </button>
          <ConfirmButton
            label="Remove"
            question={`Remove /${item.shortcut}?`}
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
  const list = useList<CannedResponse>(() => api.cannedResponses());
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
      <h1 id="canned-title">Canned responses</h1>
      <p className="muted">Agents type “/” and the shortcut in the reply box to insert one of these.</p>
      <form className="card" onSubmit={add} aria-label="Add a canned response">
        <h2>New canned response</h2>
        <CannedFields value={draft} onChange={setDraft} label="" />
        <div className="row">
          <button type="submit" className="primary">
            Add canned response
          </button>
        </div>
        <ErrorText error={error} />
      </form>
      <ErrorText error={list.error} />
      {sorted.length === 0 && !list.loading ? (
        <p className="muted">No canned response yet.</p>
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
