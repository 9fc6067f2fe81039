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
import { dayText, rangesText, statusText } from '../../hoursText';
import type { HoursStatusDto, WorkingHoursOverviewDto } from '../../../../../protocol/routing';
import { ErrorText } from './ErrorText';
import { HoursEditor } from './HoursEditor';

function HoursStatus({ status, always, label }: { status: HoursStatusDto; always: boolean; label: string }) {
  return (
    <div>
      <p className={status.open ? 'hours-open' : 'hours-closed'} aria-label={`${label} status`}>
        <strong>{statusText(status, always)}</strong>
      </p>
      <div className="table-wrap">
        <table aria-label={`${label}: the next seven days`}>
          <thead>
            <tr>
              <th>Day</th>
              <th>Hours ({status.timezone})</th>
              <th>Note</th>
            </tr>
          </thead>
          <tbody>
            {status.preview.map((d) => (
              <tr key={d.date}>
                <td>{dayText(d.date)}</td>
                <td>{d.ranges.length === 0 ? 'Closed' : rangesText(d.ranges).replace(/-/g, '–').replace('00:00–24:00', 'All day')}</td>
                <td>{d.exception === null ? '' : d.exception || 'Exception'}</td>
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
        <h1 id="hours-title">Working hours</h1>
        {error ? <ErrorText error={error} /> : <p className="muted">Loading…</p>}
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
      <h1 id="hours-title">Working hours</h1>
      <p className="muted small">
        Outside these hours the widget shows the offline form, chatMode() answers offline and the chat channel&apos;s status answers 0; at opening time they
        come back by themselves.
      </p>
      <ErrorText error={error} />
      <section className="card" aria-labelledby="account-hours-title">
        <h2 id="account-hours-title">Chat</h2>
        <HoursStatus status={view.account} always={view.account.hours === null} label="Chat" />
        <HoursEditor
          id="account"
          hours={view.account.hours}
          noneLabel="Always open"
          onSave={async (hours) => {
            await hoursApi.saveAccount(hours);
            const next = await after();
            return `Saved. ${statusText(next.account, next.account.hours === null)}.`;
          }}
        />
      </section>
      <section className="card" aria-labelledby="department-hours-title">
        <h2 id="department-hours-title">Departments</h2>
        {view.departments.length === 0 ? (
          <p className="muted">No department yet: add departments under Departments to give them hours of their own.</p>
        ) : (
          <ul className="plain">
            {view.departments.map((d) => (
              <li key={d.id} className="card">
                <h3>{d.name}</h3>
                <p className="muted small">{d.hours === null ? "Follows the account's hours." : 'Has hours of its own.'}</p>
                <HoursStatus status={d} always={d.hours === null && view.account.hours === null} label={d.name} />
                <details>
                  <summary>Change {d.name}&apos;s hours</summary>
                  <HoursEditor
                    id={`dep-${d.id}`}
                    hours={d.hours}
                    noneLabel="Use the account's hours"
                    onSave={async (hours) => {
                      const saved = await hoursApi.saveDepartment(d.id, hours);
                      await after();
                      return `Saved. ${statusText(saved, saved.hours === null && view.account.hours === null)}.`;
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
