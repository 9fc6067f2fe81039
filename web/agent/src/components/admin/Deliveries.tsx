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
import { DataTable, RefreshRow } from './DataTable';
import { ErrorText } from './ErrorText';
import { fillIn } from './fillIn';
import { GivenUpEventTypes } from './GivenUpEventTypes';
import { LoadOlder, usePaged } from './usePaged';

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
  const paged = usePaged<DeliveryDto>((page) => api.deliveries({ status: status || undefined, kind: kind || undefined, ...page }));
  const { list } = paged;
  const [error, setError] = useState<string | null>(null);

  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    paged.restart();
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
      <RefreshRow onRefresh={list.reload}>
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
      </RefreshRow>
      <ErrorText error={error ?? paged.error ?? list.error} />
      <DataTable
        className="deliveries"
        caption={t('admin.deliveries.caption')}
        captionHidden
        columns={[t('admin.audit.when'), t('admin.audit.what'), t('admin.deliveries.to'), t('admin.deliveries.status'), t('admin.deliveries.lastAnswer')]}
        actions
      >
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
      </DataTable>
      {list.items.length === 0 && !list.loading && <p className="muted">{t('admin.deliveries.empty')}</p>}
      <LoadOlder paged={paged} />
    </section>
  );
}
