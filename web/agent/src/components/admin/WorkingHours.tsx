/**
 * Admin: working hours for chat (docs/ROUTING.md). Whether chat is open now
 * and until when, the next seven days, and the editor of the account's hours
 * (outside them the widget shows the offline form and the chat channel's
 * /status answers 0); below, each department: its own hours or the account's.
 * Loaded again after each save and every minute (opening times pass).
 */
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../api';
import { hoursApi } from '../../hoursApi';
import { rangesText } from '../../hoursText';
import { t } from '../../i18n';
import type { HoursStatusDto, WorkingHoursOverviewDto } from '../../../../../protocol/routing';
import { ErrorText } from './ErrorText';
import { HoursEditor } from './HoursEditor';
import { dayText, statusText } from './hoursStatus';

function HoursStatus({ status, always, label }: { status: HoursStatusDto; always: boolean; label: string }) {
  return (
    <div>
      <p className={status.open ? 'hours-open' : 'hours-closed'} aria-label={t('admin.workingHours.statusOf', { label })}>
        <strong>{statusText(status, always)}</strong>
      </p>
      <div className="table-wrap">
        <table aria-label={t('admin.workingHours.nextDays', { label })}>
          <thead>
            <tr>
              <th>{t('admin.workingHours.day')}</th>
              <th>{t('admin.workingHours.hoursIn', { zone: status.timezone })}</th>
              <th>{t('admin.hours.note')}</th>
            </tr>
          </thead>
          <tbody>
            {status.preview.map((d) => (
              <tr key={d.date}>
                <td>{dayText(d.date)}</td>
                <td>
                  {d.ranges.length === 0 ? (
                    t('admin.workingHours.closed')
                  ) : (
                    // Times read left to right in every language: in Arabic "09:00–17:00" would otherwise show as "17:00–09:00".
                    <bdi dir="ltr">{rangesText(d.ranges).replace(/-/g, '–').replace('00:00–24:00', t('admin.workingHours.allDay'))}</bdi>
                  )}
                </td>
                <td>{d.exception === null ? '' : d.exception || t('admin.workingHours.exception')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function WorkingHours() {
  const [view, setView] = useState<WorkingHoursOverviewDto | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setView(await hoursApi.overview());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);

  useEffect(() => {
    void load();
    // Opening and closing times pass while the page is open: read the state again each minute.
    const timer = setInterval(() => void load(), 60_000);
    return () => clearInterval(timer);
  }, [load]);

  if (!view) {
    return (
      <section className="page" aria-labelledby="hours-title">
        <h1 id="hours-title">{t('admin.workingHours.title')}</h1>
        {error ? <ErrorText error={error} /> : <p className="muted">{t('common.loading')}</p>}
      </section>
    );
  }

  const after = async (): Promise<WorkingHoursOverviewDto> => {
    const next = await hoursApi.overview();
    setView(next);
    return next;
  };

  return (
    <section className="page" aria-labelledby="hours-title">
      <h1 id="hours-title">{t('admin.workingHours.title')}</h1>
      <p className="muted small">{t('admin.workingHours.intro')}</p>
      <ErrorText error={error} />
      <section className="card" aria-labelledby="account-hours-title">
        <h2 id="account-hours-title">{t('admin.workingHours.chat')}</h2>
        <HoursStatus status={view.account} always={view.account.hours === null} label={t('admin.workingHours.chat')} />
        <HoursEditor
          id="account"
          hours={view.account.hours}
          noneLabel={t('admin.alwaysOpen')}
          onSave={async (hours) => {
            await hoursApi.saveAccount(hours);
            const next = await after();
            return t('admin.workingHours.saved', { status: statusText(next.account, next.account.hours === null) });
          }}
        />
      </section>
      <section className="card" aria-labelledby="department-hours-title">
        <h2 id="department-hours-title">{t('admin.departments.title')}</h2>
        {view.departments.length === 0 ? (
          <p className="muted">{t('admin.workingHours.noDepartments')}</p>
        ) : (
          <ul className="plain">
            {view.departments.map((d) => (
              <li key={d.id} className="card">
                <h3>{d.name}</h3>
                <p className="muted small">{d.hours === null ? t('admin.workingHours.follows') : t('admin.workingHours.own')}</p>
                <HoursStatus status={d} always={d.hours === null && view.account.hours === null} label={d.name} />
                <details>
                  <summary>{t('admin.workingHours.change', { name: d.name })}</summary>
                  <HoursEditor
                    id={`dep-${d.id}`}
                    hours={d.hours}
                    noneLabel={t('admin.workingHours.useAccount')}
                    onSave={async (hours) => {
                      const saved = await hoursApi.saveDepartment(d.id, hours);
                      await after();
                      return t('admin.workingHours.saved', { status: statusText(saved, saved.hours === null && view.account.hours === null) });
                    }}
                  />
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
