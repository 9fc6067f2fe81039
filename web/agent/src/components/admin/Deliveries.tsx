/**
 * Admin: the log of outgoing requests (chat-channel deliveries and event
 * webhooks), filterable, with redelivery; each row's last answer shows the
 * error recorded and the start of what the receiver answered. The event types
 * given up on are shown above it.
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { formatDateTime, t, tn } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { DeliveryDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';
import { fillIn } from './fillIn';
import { GivenUpEventTypes } from './GivenUpEventTypes';

const PAGE = 50;

/** A delivery's status in the reader's words (the pill keeps the status's own class). */
const STATUSES: Record<string, TextKey> = {
  pending: 'admin.deliveries.status.pending',
  delivered: 'admin.deliveries.status.delivered',
  failed: 'admin.deliveries.status.failed',
  paused: 'admin.deliveries.status.paused',
  cancelled: 'admin.deliveries.status.cancelled',
};
const statusName = (s: string): string => (s in STATUSES ? t(STATUSES[s]) : s);

export function Deliveries() {
  const [status, setStatus] = useState('');
  const [kind, setKind] = useState('');
  const list = useList<DeliveryDto>(() => api.deliveries({ status: status || undefined, kind: kind || undefined, limit: PAGE }));
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(true);

  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setMore(true);
    list.reload();
  };

  const loadMore = async () => {
    const oldest = list.items[list.items.length - 1]?.id;
    try {
      const page = await api.deliveries({ status: status || undefined, kind: kind || undefined, limit: PAGE, before: oldest });
      list.setItems((all) => [...all, ...page.filter((d) => !all.some((x) => x.id === d.id))]);
      setMore(page.length === PAGE);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const redeliver = async (d: DeliveryDto) => {
    setError(null);
    try {
      list.upsert(await api.redeliver(d.id));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">{t('admin.deliveries.title')}</h1>
      <GivenUpEventTypes />
      <div className="row">
        <label>
          {t('admin.deliveries.status')}
          <select name="status" value={status} onChange={filter(setStatus)}>
            <option value="">{t('admin.deliveries.any')}</option>
            {Object.keys(STATUSES).map((s) => (
              <option key={s} value={s}>
                {statusName(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.deliveries.kind')}
          <select name="kind" value={kind} onChange={filter(setKind)}>
            <option value="">{t('admin.deliveries.any')}</option>
            <option value="chat_channel">{t('admin.deliveries.kind.chat_channel')}</option>
            <option value="event_webhook">{t('admin.deliveries.kind.event_webhook')}</option>
            <option value="web_push">{t('admin.deliveries.kind.web_push')}</option>
          </select>
        </label>
        <button type="button" onClick={list.reload}>
          {t('admin.refresh')}
        </button>
      </div>
      <ErrorText error={error ?? list.error} />
      <div className="table-wrap">
        <table className="deliveries">
          <caption className="sr-only">{t('admin.deliveries.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.audit.when')}</th>
              <th scope="col">{t('admin.audit.what')}</th>
              <th scope="col">{t('admin.deliveries.to')}</th>
              <th scope="col">{t('admin.deliveries.status')}</th>
              <th scope="col">{t('admin.deliveries.lastAnswer')}</th>
              <th scope="col">
                <span className="sr-only">{t('admin.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((d) => (
              <tr key={d.id}>
                <td>{formatDateTime(d.created_at)}</td>
                <td>
                  {d.event_type}
                  {d.chat_id !== null && <span className="muted small"> · {t('admin.deliveries.chat', { id: String(d.chat_id) })}</span>}
                </td>
                <td className="break">{d.url}</td>
                <td>
                  <span className={`pill pill-${d.status}`}>{statusName(d.status)}</span>
                  <span className="muted small"> {tn('admin.attempts', d.attempts)}</span>
                </td>
                <td className="break small">
                  {d.last_status_code !== null && <strong>{d.last_status_code} </strong>}
                  {d.last_error}
                  {d.last_response && (
                    <>
                      {d.last_error && ' · '}
                      {fillIn(t('admin.deliveries.answer'), { response: <code dir="ltr">{d.last_response}</code> })}
                    </>
                  )}
                </td>
                <td>
                  <button type="button" onClick={() => void redeliver(d)} aria-label={t('admin.deliveries.redeliverLabel', { id: String(d.id) })}>
                    {t('admin.deliveries.redeliver')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.items.length === 0 && !list.loading && <p className="muted">{t('admin.deliveries.empty')}</p>}
      {more && list.items.length >= PAGE && (
        <button type="button" onClick={() => void loadMore()}>
          {t('admin.loadOlder')}
        </button>
      )}
    </section>
  );
}
