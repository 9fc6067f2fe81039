/**
 * Callback settings: on/off, call time left, time zone and opening hours
 * (per day "09:00-13:00, 14:00-18:00"; an empty day is closed; "always open"
 * sends hours: null), each field explained beside it. Ticking "Visitors may
 * ask to be called back" while no call time is left fills in 10 hours (the
 * server's default when callbacks are switched on), so the widget does not
 * say "Calls are not available" right after. The result shows beside the
 * Save button, a refusal in the screen's words.
 */
import { useState, type FormEvent } from 'react';
import { t } from '../../i18n';
import type { SettingsDto } from '../../../../../protocol/agent';
import type { CallbackHours, CallbackSettings } from '../../types';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from './SaveResult';
import { weekdayName } from './weekdays';

const DAYS = [['mon'], ['tue'], ['wed'], ['thu'], ['fri'], ['sat'], ['sun']] as const;

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

/** The server's ENABLED_CALLBACK_BALANCE: 10 hours. */
const ENABLED_BALANCE = 36_000;

/** "10 h", "1 h 30 min", "45 s": what a number of seconds of call time is. */
function duration(text: string): string {
  const s = Number(text);
  if (!Number.isInteger(s) || s <= 0) return t('admin.callback.none');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [
    h && t('admin.callback.hours', { n: h }),
    m && t('admin.callback.minutes', { n: m }),
    s % 60 && t('admin.callback.seconds', { n: s % 60 }),
  ].filter(Boolean);
  return parts.join(' ');
}

export function CallbackForm({ callback, onSave }: { callback: CallbackSettings; onSave: (cb: Partial<CallbackSettings>) => Promise<SettingsDto> }) {
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
      (s) => (s.callback.enabled ? t('admin.callback.saved') : t('admin.callback.savedOff')),
    );
  };

  return (
    <form className="card form-grid" onSubmit={submit} aria-labelledby="callback-title">
      <h2 id="callback-title">{t('admin.callback.title')}</h2>
      <label className="check">
        <input
          type="checkbox"
          name="callback_enabled"
          checked={enabled}
          aria-describedby="cb-enabled-hint"
          onChange={(e) => {
            setEnabled(e.target.checked);
            if (e.target.checked && !(Number(balance) > 0)) setBalance(String(ENABLED_BALANCE));
          }}
        />
        {t('admin.callback.enabled')}
      </label>
      <p id="cb-enabled-hint" className="muted small">
        {t('admin.callback.enabledHint')}
      </p>
      <label htmlFor="cb-balance">{t('admin.callback.balance')}</label>
      <input
        id="cb-balance"
        name="balance_seconds"
        type="number"
        min={0}
        step={1}
        aria-describedby="cb-balance-hint"
        value={balance}
        onChange={(e) => setBalance(e.target.value)}
      />
      <p id="cb-balance-hint" className="muted small">
        {t('admin.callback.balanceHint', { left: duration(balance) })}
      </p>
      <label htmlFor="cb-timezone">{t('admin.timezone')}</label>
      <input id="cb-timezone" name="timezone" aria-describedby="cb-timezone-hint" value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      <p id="cb-timezone-hint" className="muted small">
        {t('admin.callback.timezoneHint')}
      </p>
      <label className="check">
        <input type="checkbox" name="always_open" checked={always} aria-describedby="cb-always-hint" onChange={(e) => setAlways(e.target.checked)} />
        {t('admin.alwaysOpen')}
      </label>
      <p id="cb-always-hint" className="muted small">
        {t('admin.callback.alwaysHint')}
      </p>
      {!always && (
        <fieldset className="hours">
          <legend>{t('admin.callback.openingHours')}</legend>
          {DAYS.map(([day]) => (
            <label key={day} className="day">
              <span>{weekdayName(day)}</span>
              <input
                name={`hours_${day}`}
                value={days[day]}
                placeholder={t('admin.closedPlaceholder')}
                onChange={(e) => setDays((d) => ({ ...d, [day]: e.target.value }))}
              />
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.callback.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
