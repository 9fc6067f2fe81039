/**
 * Admin settings: which event types the event webhook URL gets, one checkbox
 * each (docs/EVENTS.md "Choosing the event types"): the spec's six are on by
 * default, the three extras off. Saved with PUT /api/v1/settings
 * {event_webhook_types}; unticking a type cancels its deliveries not yet
 * sent. The result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { useSaver } from '../../hooks/useSaver';
import { t, tn } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { SettingsDto } from '../../../../../protocol/agent';
import { SaveResult } from './SaveResult';

/** Every type, in the order of docs/EVENTS.md, with what it is in the reader's words. */
const TYPES: Array<[name: string, label: TextKey, extra?: true]> = [
  ['chat_accepted', 'admin.eventTypes.chat_accepted'],
  ['chat_assigned', 'admin.eventTypes.chat_assigned'],
  ['chat_updated', 'admin.eventTypes.chat_updated'],
  ['chat_finished', 'admin.eventTypes.chat_finished'],
  ['offline_message', 'admin.eventTypes.offline_message'],
  ['call_event', 'admin.eventTypes.call_event'],
  ['chat_started', 'admin.eventTypes.chat_started', true],
  ['chat_missed', 'admin.eventTypes.chat_missed', true],
  ['chat_rated', 'admin.eventTypes.chat_rated', true],
  ['visitor_erased', 'admin.eventTypes.visitor_erased', true],
];

export function EventTypesForm({ settings, onSaved }: { settings: SettingsDto; onSaved: (s: SettingsDto) => void }) {
  const [types, setTypes] = useState<Record<string, boolean>>(settings.event_webhook_types ?? {});
  const saver = useSaver();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      async () => {
        const next = await api.updateSettings({ event_webhook_types: Object.fromEntries(TYPES.map(([name]) => [name, types[name] === true])) });
        const now = next.event_webhook_types ?? {};
        setTypes(now);
        onSaved(next);
        return TYPES.filter(([name]) => now[name]).length;
      },
      (on) => (on === 0 ? t('admin.eventTypes.savedNone') : tn('admin.eventTypes.saved', on, { total: TYPES.length })),
    );
  };

  return (
    <form id="event-types" className="card form-grid" onSubmit={submit} aria-labelledby="event-types-title">
      <h2 id="event-types-title">{t('admin.eventTypes.title')}</h2>
      <p className="muted small">{t('admin.eventTypes.hint')}</p>
      <fieldset className="event-types">
        <legend>{t('admin.eventTypes.legend')}</legend>
        {TYPES.map(([name, label, extra]) => (
          <label key={name} className="check">
            <input type="checkbox" name={name} checked={types[name] === true} onChange={(e) => setTypes({ ...types, [name]: e.target.checked })} />
            <span>
              {t(label)} <code dir="ltr">{name}</code>
              {extra && <span className="muted small"> {t('admin.eventTypes.extra')}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.eventTypes.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
