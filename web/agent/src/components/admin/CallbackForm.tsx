/**
 * Callback settings: on/off, call time left, time zone and opening hours
 * (per day "09:00-13:00, 14:00-18:00"; an empty day is closed; "always open"
 * sends hours: null). The result shows beside the Save button, a refusal in
 * the screen's words ("Monday: opening hours must look like 09:00–17:30").
 */
import { useState, type FormEvent } from 'react';
import type { CallbackHours, CallbackSettings, Settings } from '../../types';
import { SaveResult, useSaver } from './SaveResult';

const DAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;

type Day = (typeof DAYS)[number][0];

function toText(hours: CallbackHours | null): Record<Day, string> {
  const out = {} as Record<Day, string>;
  for (const [day] of DAYS) out[day] = (hours?.[day] ?? []).map(([a, b]) => `${a}-${b}`).join(', ');
  return out;
}

function toHours(text: Record<Day, string>): CallbackHours {
  const hours: CallbackHours = {};
  for (const [day] of DAYS) {
    const ranges = text[day]
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean)
      .map((r) => r.split('-').map((t) => t.trim()));
    if (ranges.length > 0) hours[day] = ranges;
  }
  return hours;
}

export function CallbackForm({ callback, onSave }: { callback: CallbackSettings; onSave: (cb: Partial<CallbackSettings>) => Promise<Settings> }) {
  const saver = useSaver();
  const [enabled, setEnabled] = useState(callback.enabled);
  const [balance, setBalance] = useState(String(callback.balance_seconds));
  const [timezone, setTimezone] = useState(callback.timezone);
  const [always, setAlways] = useState(callback.hours === null);
  const [days, setDays] = useState(toText(callback.hours));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      () => onSave({ enabled, balance_seconds: Number(balance) || 0, timezone: timezone.trim() || 'UTC', hours: always ? null : toHours(days) }),
      (s) => (s.callback.enabled ? 'Callback settings saved.' : 'Callback settings saved; callbacks are off.'),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="callback-title">
      <h2 id="callback-title">Callbacks</h2>
      <label className="check">
        <input type="checkbox" name="callback_enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Visitors may ask to be called back
      </label>
      <label htmlFor="cb-balance">Call time left (seconds)</label>
      <input id="cb-balance" name="balance_seconds" type="number" min={0} step={1} value={balance} onChange={(e) => setBalance(e.target.value)} />
      <label htmlFor="cb-timezone">Time zone (IANA, e.g. Europe/Berlin)</label>
      <input id="cb-timezone" name="timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      <label className="check">
        <input type="checkbox" name="always_open" checked={always} onChange={(e) => setAlways(e.target.checked)} />
        Always open
      </label>
      {!always && (
        <fieldset className="hours">
          <legend>Opening hours (HH:MM-HH:MM, comma-separated; empty: closed)</legend>
          {DAYS.map(([day, label]) => (
            <label key={day} className="day">
              <span>{label}</span>
              <input name={`hours_${day}`} value={days[day]} placeholder="closed" onChange={(e) => setDays((d) => ({ ...d, [day]: e.target.value }))} />
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          Save callback settings
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
