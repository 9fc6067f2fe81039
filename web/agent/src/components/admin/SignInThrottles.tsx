/**
 * Admin: sign-in throttles. Failed sign-ins make an address wait, for one
 * e-mail (a pair) or for every e-mail (a source), longer after each failure;
 * this lists those that name the account's agents and lets an admin clear
 * one, so that address can sign in again at once. The result of a clear is
 * said above the table (its row is gone).
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { SignInThrottle } from '../../types';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';

function what(t: SignInThrottle): string {
  return t.kind === 'pair' ? `${t.email ?? ''} from ${t.address}` : `every e-mail from ${t.address}`;
}

function left(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? `${seconds} s left` : `${Math.ceil(seconds / 60)} min left`;
}

export function SignInThrottles() {
  const list = useList<SignInThrottle>(() => api.throttles());
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const clear = async (t: SignInThrottle) => {
    setError(null);
    setResult(null);
    try {
      await api.clearThrottle(t.id);
      list.setItems((all) => all.filter((x) => x.id !== t.id));
      setResult(`Cleared: sign-ins of ${what(t)} are accepted again now.`);
    } catch (err) {
      setError(`Not cleared: ${errorText(err)}`);
    }
  };

  const now = Date.now();
  return (
    <section className="page" aria-labelledby="throttles-title">
      <h1 id="throttles-title">Sign-in throttles</h1>
      <p className="muted small">
        After 5 failed sign-ins of one e-mail from one address (or 100 of any e-mails from one address), that address waits before it may try again: 15 seconds,
        then twice as long after each new failure, up to 15 minutes. Nobody else is held back: the right password from another address is always accepted.
        Failures are forgotten a day after the last one.
      </p>
      <div className="row">
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorText error={error ?? list.error} />
      {result && (
        <p role="status" className="saved">
          {result}
        </p>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="throttles">
            <caption className="sr-only">Throttled sign-ins, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Failures</th>
                <th scope="col">Last failure</th>
                <th scope="col">Waits until</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((t) => (
                <tr key={t.id}>
                  <td className="break">
                    {t.kind === 'pair' ? (
                      <>
                        {t.email} <span className="muted small">from {t.address}</span>
                      </>
                    ) : (
                      <>
                        {t.address} <span className="muted small">(every e-mail)</span>
                      </>
                    )}
                  </td>
                  <td>{t.failures}</td>
                  <td>{dateTime(t.last_failure_at)}</td>
                  <td>
                    {t.blocked_until !== null && t.blocked_until > now ? (
                      <>
                        <span className="pill pill-failed">{dateTime(t.blocked_until)}</span>
                        <span className="muted small"> {left(t.blocked_until - now)}</span>
                      </>
                    ) : (
                      <span className="muted small">not waiting</span>
                    )}
                  </td>
                  <td>
                    <button type="button" onClick={() => void clear(t)} aria-label={`Clear the throttle of ${what(t)}`}>
                      Clear
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.items.length === 0 && !list.loading && !list.error && (
        <p className="muted">No sign-in is throttled: nobody failed to sign in to an agent of this account lately.</p>
      )}
    </section>
  );
}
