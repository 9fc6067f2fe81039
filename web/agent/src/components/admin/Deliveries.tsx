/**
 * Admin: the log of outgoing requests (chat-channel deliveries and event
 * webhooks), filterable, with redelivery; each row's last answer shows the
 * error recorded and the start of what the receiver answered. The event types
 * given up on are shown above it.
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { DeliveryRecord } from '../../types';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';
import { GivenUpEventTypes } from './GivenUpEventTypes';

const PAGE = 50;

export function Deliveries() {
  const [status, setStatus] = useState('');
  const [kind, setKind] = useState('');
  const list = useList<DeliveryRecord>(() => api.deliveries({ status: status || undefined, kind: kind || undefined, limit: PAGE }));
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

  const redeliver = async (d: DeliveryRecord) => {
    setError(null);
    try {
      list.upsert(await api.redeliver(d.id));
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">Delivery log</h1>
      <GivenUpEventTypes />
      <div className="row">
        <label>
          Status
          <select name="status" value={status} onChange={filter(setStatus)}>
            <option value="">any</option>
            <option value="pending">pending</option>
            <option value="delivered">delivered</option>
            <option value="failed">failed</option>
            <option value="paused">paused</option>
            <option value="cancelled">cancelled</option>
          </select>
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={filter(setKind)}>
            <option value="">any</option>
            <option value="chat_channel">chat channel</option>
            <option value="event_webhook">event webhook</option>
            <option value="web_push">push notification</option>
          </select>
        </label>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorText error={error ?? list.error} />
      <div className="table-wrap">
        <table className="deliveries">
          <caption className="sr-only">Outgoing requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
              <th scope="col">Last answer</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((d) => (
              <tr key={d.id}>
                <td>{dateTime(d.created_at)}</td>
                <td>
                  {d.event_type}
                  {d.chat_id !== null && <span className="muted small"> · chat {d.chat_id}</span>}
                </td>
                <td className="break">{d.url}</td>
                <td>
                  <span className={`pill pill-${d.status}`}>{d.status}</span>
                  <span className="muted small">
                    {' '}
                    {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                  </span>
                </td>
                <td className="break small">
                  {d.last_status_code !== null && <strong>{d.last_status_code} </strong>}
                  {d.last_error}
                  {d.last_response && (
                    <>
                      {d.last_error && ' · '}
                      answer: <code>{d.last_response}</code>
                    </>
                  )}
                </td>
                <td>
                  <button type="button" onClick={() => void redeliver(d)} aria-label={`Redeliver delivery ${d.id}`}>
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.items.length === 0 && !list.loading && <p className="muted">Nothing was sent yet.</p>}
      {more && list.items.length >= PAGE && (
        <button type="button" onClick={() => void loadMore()}>
          Load older
        </button>
      )}
    </section>
  );
}
