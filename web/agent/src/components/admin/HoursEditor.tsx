/**
 * Editing working hours: a switch for "no hours of its own" (the account:
 * always open; a department: the account's hours), the IANA time zone, each
 * day's ranges as "09:00-17:00, …" (empty: closed) and dated exceptions
 * (holidays: no ranges = closed all day). The save's result, or the server's
 * sentence on what is wrong, shows next to the Save button.
 */
import { useState, type FormEvent } from 'react';
import { useSaver } from '../../hooks/useSaver';
import { t } from '../../i18n';
import { parseRanges, rangesText, WEEKDAYS } from '../../hoursText';
import type { WorkingHoursDto } from '../../../../../protocol/routing';
import { SaveResult } from './SaveResult';
import { weekdayName } from './weekdays';

interface ExceptionRow {
  key: number;
  date: string;
  ranges: string;
  note: string;
}

let nextKey = 1;
const zones = (): string[] => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);

export function HoursEditor(props: {
  id: string;
  hours: WorkingHoursDto | null;
  /** What having no hours of its own means, e.g. "Always open". */
  noneLabel: string;
  /** Saves; resolves to the sentence shown as the result. */
  onSave: (hours: WorkingHoursDto | null) => Promise<string>;
}) {
  const { id, hours } = props;
  const [none, setNone] = useState(hours === null);
  const [timezone, setTimezone] = useState(hours?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC');
  const [days, setDays] = useState(() =>
    Object.fromEntries(WEEKDAYS.map(([d]) => [d, hours ? rangesText(hours.weekly[d]) : d === 'sat' || d === 'sun' ? '' : '09:00-17:00'])),
  );
  const [exceptions, setExceptions] = useState<ExceptionRow[]>(() =>
    (hours?.exceptions ?? []).map((e) => ({ key: nextKey++, date: e.date, ranges: rangesText(e.ranges), note: e.note ?? '' })),
  );
  const saver = useSaver();

  const build = (): WorkingHoursDto | null => {
    if (none) return null;
    const weekly: WorkingHoursDto['weekly'] = {};
    for (const [d] of WEEKDAYS) {
      const ranges = parseRanges(days[d] ?? '');
      if (ranges.length > 0) weekly[d] = ranges;
    }
    const list = exceptions
      .filter((e) => e.date.trim() !== '')
      .map((e) => ({ date: e.date.trim(), ranges: parseRanges(e.ranges), note: e.note.trim() || null }));
    return { timezone: timezone.trim(), weekly, exceptions: list };
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(
      () => props.onSave(build()),
      (said) => said,
    );
  };

  const change = (key: number, patch: Partial<ExceptionRow>) => setExceptions((all) => all.map((x) => (x.key === key ? { ...x, ...patch } : x)));

  return (
    <form className="form-grid" onSubmit={(e) => void submit(e)} aria-label={t('admin.hours.formLabel', { id })}>
      <label className="check">
        <input type="checkbox" name="none" checked={none} onChange={(e) => setNone(e.target.checked)} />
        {props.noneLabel}
      </label>
      {!none && (
        <>
          <label htmlFor={`${id}-tz`}>{t('admin.timezone')}</label>
          <input id={`${id}-tz`} name="timezone" list={`${id}-zones`} value={timezone} onChange={(e) => setTimezone(e.target.value)} />
          <datalist id={`${id}-zones`}>
            {zones().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <fieldset className="hours">
            <legend>{t('admin.hours.weekly')}</legend>
            {WEEKDAYS.map(([day]) => (
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
          <fieldset className="hours">
            <legend>{t('admin.hours.exceptions')}</legend>
            {exceptions.length === 0 && <p className="muted small">{t('admin.hours.noException')}</p>}
            {exceptions.map((x) => (
              <div key={x.key} className="day row">
                <label>
                  <span className="sr-only">{t('admin.hours.date')}</span>
                  <input
                    type="date"
                    name="exception_date"
                    aria-label={t('admin.hours.exceptionDate')}
                    value={x.date}
                    onChange={(e) => change(x.key, { date: e.target.value })}
                  />
                </label>
                <input
                  name="exception_hours"
                  aria-label={t('admin.hours.thatDay')}
                  placeholder={t('admin.closedPlaceholder')}
                  value={x.ranges}
                  onChange={(e) => change(x.key, { ranges: e.target.value })}
                />
                <input
                  name="exception_note"
                  aria-label={t('admin.hours.note')}
                  placeholder={t('admin.hours.notePlaceholder')}
                  maxLength={100}
                  value={x.note}
                  onChange={(e) => change(x.key, { note: e.target.value })}
                />
                <button type="button" onClick={() => setExceptions((all) => all.filter((y) => y.key !== x.key))}>
                  {t('common.remove')}
                </button>
              </div>
            ))}
            <button type="button" onClick={() => setExceptions((all) => [...all, { key: nextKey++, date: '', ranges: '', note: '' }])}>
              {t('admin.hours.addException')}
            </button>
          </fieldset>
        </>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.busy}>
          {t('admin.hours.save')}
        </button>
        <SaveResult saver={saver} />
      </div>
    </form>
  );
}
