/**
 * Admin: sign-in throttles. Failed sign-ins make an address wait, for one
 * e-mail (a pair) or for every e-mail (a source), longer after each failure;
 * this lists those that name the account's agents and lets an admin clear
 * one, so that address can sign in again at once. The result of a clear is
 * said above the table (its row is gone).
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { formatDateTime, t } from '../../i18n';
import type { SignInThrottleDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { DataTable, Outcome, RefreshRow } from './DataTable';

function what(th: SignInThrottleDto): string {
  return th.kind === 'pair' ? t('admin.throttles.pair', { email: th.email ?? '', address: th.address }) : t('admin.throttles.source', { address: th.address });
}

function left(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? t('admin.throttles.secondsLeft', { n: seconds }) : t('admin.throttles.minutesLeft', { n: Math.ceil(seconds / 60) });
}

export function SignInThrottles() {
  const list = useList<SignInThrottleDto>(() => api.throttles());
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const clear = async (th: SignInThrottleDto) => {
    setError(null);
    setResult(null);
    try {
      await api.clearThrottle(th.id);
      list.setItems((all) => all.filter((x) => x.id !== th.id));
      setResult(t('admin.throttles.cleared', { what: what(th) }));
    } catch (err) {
      setError(t('admin.throttles.notCleared', { error: errorText(err) }));
    }
  };

  const now = Date.now();
  return (
    <section className="page" aria-labelledby="throttles-title">
      <h1 id="throttles-title">{t('admin.throttles.title')}</h1>
      <p className="muted small">{t('admin.throttles.intro')}</p>
      <RefreshRow onRefresh={list.reload} />
      <Outcome error={error ?? list.error} result={result} />
      {list.items.length > 0 && (
        <DataTable
          className="throttles"
          caption={t('admin.throttles.caption')}
          captionHidden
          columns={[t('admin.audit.who'), t('admin.throttles.failures'), t('admin.throttles.lastFailure'), t('admin.throttles.waitsUntil')]}
          actions
        >
          {list.items.map((th) => (
            <tr key={th.id}>
              <td className="break">
                {th.kind === 'pair' ? (
                  <>
                    {th.email} <span className="muted small">{t('admin.throttles.from', { address: th.address })}</span>
                  </>
                ) : (
                  <>
                    {th.address} <span className="muted small">{t('admin.throttles.everyEmail')}</span>
                  </>
                )}
              </td>
              <td>{th.failures}</td>
              <td>{formatDateTime(th.last_failure_at)}</td>
              <td>
                {th.blocked_until !== null && th.blocked_until > now ? (
                  <>
                    <span className="pill pill-failed">{formatDateTime(th.blocked_until)}</span>
                    <span className="muted small"> {left(th.blocked_until - now)}</span>
                  </>
                ) : (
                  <span className="muted small">{t('admin.throttles.notWaiting')}</span>
                )}
              </td>
              <td>
                <button type="button" onClick={() => void clear(th)} aria-label={t('admin.throttles.clearLabel', { what: what(th) })}>
                  {t('admin.throttles.clear')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.items.length === 0 && !list.loading && !list.error && <p className="muted">{t('admin.throttles.empty')}</p>}
    </section>
  );
}
