/**
 * Callback requests (GET /api/v1/calls), newest first, live, with their status
 * actions. `/calls?call=<id>` (the link of the callback-request mail) marks
 * that call and scrolls to it.
 */
import { useEffect, useRef } from 'react';
import { api } from '../api';
import { useApp, useOnResync } from '../context';
import { dateTime, isRecord, safeHref } from '../format';
import { Link } from '../router';
import type { Call } from '../types';
import { CallActions } from './CallActions';
import { useList } from './useList';

const LABEL: Record<string, string> = {
  start: 'Requested',
  agent_connected: 'Agent connected',
  client_connected: 'Client connected',
  end: 'Ended',
  error: 'Failed',
};

/** What the statuses and buttons mean: an agent rings the visitor from their own phone and tells Parley how it goes. */
function CallsHelp({ open }: { open: boolean }) {
  return (
    <details className="card calls-help" open={open || undefined}>
      <summary>How callback requests work</summary>
      <p>
        A visitor asked in the widget to be called back and left this number. Parley places no call: ring the number from your own phone (it is a link), and
        press the buttons as the call goes, so the visitor&apos;s widget and the page&apos;s scripts follow it.
      </p>
      <dl>
        <dt>Agent connected</dt>
        <dd>You are dialling: the widget tells the visitor &quot;An agent is calling you now&quot;. The call is yours from here.</dd>
        <dt>Client connected</dt>
        <dd>The visitor answered: the widget says you are connected.</dd>
        <dt>End call</dt>
        <dd>You hung up. The time from the first &quot;connected&quot; to the end is charged against the call time left (Admin → Settings → Callbacks).</dd>
        <dt>Failed…</dt>
        <dd>Nobody answered, or the number is wrong: give a short reason (the visitor&apos;s widget says the call failed) and the request is closed.</dd>
      </dl>
    </details>
  );
}

export function Calls() {
  const { onFrame, clearBadge } = useApp();
  const list = useList<Call>(() => api.calls());
  const { upsert, reload } = list;

  const wanted = Number(new URLSearchParams(location.search).get('call')) || null;
  const marked = useRef<HTMLLIElement>(null);
  const found = wanted !== null && list.items.some((c) => c.id === wanted);
  useEffect(() => {
    if (found) marked.current?.scrollIntoView({ block: 'center' });
  }, [found]);

  useEffect(() => clearBadge('calls'), [clearBadge]);
  useOnResync(reload);
  useEffect(
    () =>
      onFrame((frame) => {
        if (frame.type !== 'call.updated' || !isRecord(frame.data.call)) return;
        const call = frame.data.call;
        if (typeof call.id === 'number') upsert(call);
        clearBadge('calls');
      }),
    [onFrame, upsert, clearBadge],
  );

  return (
    <section className="page" aria-labelledby="calls-title">
      <h1 id="calls-title">Callback requests</h1>
      <CallsHelp open={!list.loading && list.items.length === 0} />
      {list.missing ? (
        <p className="page-note">Calls are not available on this server yet.</p>
      ) : list.error ? (
        <p className="error" role="alert">
          {list.error}
        </p>
      ) : list.loading ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">No callback request yet.</p>
      ) : (
        <>
          {wanted !== null && !found && <p className="page-note">Call #{wanted} is not among the latest callback requests.</p>}
          <ul className="cards" aria-live="polite">
            {list.items.map((call) => {
              const record = safeHref(call.record_url);
              return (
                <li
                  key={call.id}
                  className={call.id === wanted ? 'card marked' : 'card'}
                  data-call-id={call.id}
                  ref={call.id === wanted ? marked : undefined}
                  aria-current={call.id === wanted ? 'true' : undefined}
                >
                  <p className="card-title">
                    <a href={`tel:${call.phone}`}>{call.phone}</a> <span className={`pill pill-call-${call.status}`}>{LABEL[call.status] ?? call.status}</span>
                  </p>
                  <p className="muted small">
                    {dateTime(call.created_at)}
                    {typeof call.duration_seconds === 'number' && call.duration_seconds > 0 && <> · {call.duration_seconds} s</>}
                    {typeof call.chat_id === 'number' && (
                      <>
                        {' · '}
                        <Link href={`/chats/${call.chat_id}`}>Open the chat</Link>
                      </>
                    )}
                  </p>
                  {call.reason && <p className="error small">{call.reason}</p>}
                  {record && (
                    <p>
                      <audio controls preload="none" src={record} aria-label={`Recording of the call with ${call.phone}`} />{' '}
                      <a href={record} target="_blank" rel="noopener noreferrer">
                        Recording
                      </a>
                    </p>
                  )}
                  {call.status !== 'end' && call.status !== 'error' && <CallActions call={call} onChanged={upsert} />}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
