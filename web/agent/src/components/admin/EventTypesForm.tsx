/**
 * Admin settings: which event types the event webhook URL gets, one checkbox
 * each (docs/EVENTS.md "Choosing the event types"): the spec's six are on by
 * default, the three extras off. Saved with PUT /api/v1/settings
 * {event_webhook_types}; unticking a type cancels its deliveries not yet
 * sent. The result shows beside the button.
 */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api';
import type { Settings } from '../../types';
import { ErrorText } from './ErrorText';

/** Every type, in the order of docs/EVENTS.md, with what it is in the reader's words. */
const TYPES: Array<[name: string, label: string, extra?: true]> = [
  ['chat_accepted', 'An agent accepted a chat'],
  ['chat_assigned', 'An agent bound a chat to the CRM card'],
  ['chat_updated', 'The visitor changed his details'],
  ['chat_finished', 'A chat was finished (with its transcript)'],
  ['offline_message', 'A visitor left an offline message'],
  ['call_event', 'A callback call started or changed status'],
  ['chat_started', 'A new chat is waiting for an agent', true],
  ['chat_missed', 'Nobody accepted a chat in time (after the missed-chat minutes)', true],
  ['chat_rated', 'The visitor rated a chat', true],
  ['visitor_erased', 'An administrator erased a visitor (its identifiers only)', true],
];

export function EventTypesForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [types, setTypes] = useState<Record<string, boolean>>(settings.event_webhook_types ?? {});
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved('');
    setError(null);
    try {
      const next = await api.updateSettings({ event_webhook_types: Object.fromEntries(TYPES.map(([name]) => [name, types[name] === true])) });
      const now = next.event_webhook_types ?? {};
      setTypes(now);
      onSaved(next);
      const on = TYPES.filter(([name]) => now[name]).length;
      setSaved(on === 0 ? 'Saved: no event is sent.' : `Saved: ${on} of ${TYPES.length} event types are sent.`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form id="event-types" className="card form-grid" onSubmit={submit} aria-labelledby="event-types-title">
      <h2 id="event-types-title">Event types</h2>
      <p className="muted small">
        Which events are POSTed to the event webhook URL. Unticking one stops it at once: its events not yet sent are cancelled. The last four are not in the
        original interface; receivers that refuse unknown events should leave them off.
      </p>
      <fieldset className="event-types">
        <legend>Send these events</legend>
        {TYPES.map(([name, label, extra]) => (
          <label key={name} className="check">
            <input type="checkbox" name={name} checked={types[name] === true} onChange={(e) => setTypes({ ...types, [name]: e.target.checked })} />
            <span>
              {label} <code>{name}</code>
              {extra && <span className="muted small"> (extra)</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="primary">
          Save event types
        </button>
        <span role="status" className="saved">
          {saved}
        </span>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
