/**
 * Admin: System (GET /api/v1/system). How this instance reads its clients'
 * addresses: the proxies TRUST_PROXY lists, and any address that sent
 * X-Forwarded-For without being listed. Behind such a proxy every client
 * shares the proxy's address, and so its sign-in limits (docs/SECURITY.md §6):
 * the page says so and what to set, in the operator's words. The scheduled
 * backups: the last one, its result, and the next (BackupStatus). And the
 * account's data as one file (ExportCard).
 */
import { api } from '../../api';
import { formatDateTime, t, tn } from '../../i18n';
import type { SystemDto } from '../../../../../protocol/agent';
import { BackupStatus } from './BackupStatus';
import { RefreshRow } from './DataTable';
import { ErrorText } from './ErrorText';
import { ExportCard } from './ExportCard';
import { fillIn } from './fillIn';
import { VersionLine } from './VersionLine';
import { useLoaded } from './useLoaded';

/** The setting that trusts these proxies, as the operator writes it: code, the same in every language. */
const trustProxyLine = (addresses: string[]): string => `TRUST_PROXY=${addresses.join(',')}`;

export function SystemPage() {
  const { value: info, error, load } = useLoaded<SystemDto>(() => api.system(), 'admin.system.readError');

  const untrusted = info?.untrusted_proxies ?? [];
  return (
    <section className="page" aria-labelledby="system-title">
      <h1 id="system-title">{t('admin.system.title')}</h1>
      <VersionLine />
      <RefreshRow onRefresh={load} />
      <ErrorText error={error} />
      <section aria-labelledby="backups-title">
        <h2 id="backups-title">{t('admin.system.backups')}</h2>
        {info === null ? !error && <p className="muted">{t('common.loading')}</p> : <BackupStatus backups={info.backups} />}
      </section>
      <section aria-labelledby="proxies-title">
        <h2 id="proxies-title">{t('admin.system.proxies')}</h2>
        {info === null ? (
          !error && <p className="muted">{t('common.loading')}</p>
        ) : (
          <>
            <p>
              {info.trust_proxy.length === 0 ? (
                <>
                  <strong>{t('admin.system.noTrustProxy')}</strong> {t('admin.system.noTrustProxyText')}
                </>
              ) : (
                <>
                  <strong>{t('admin.system.trusted')}</strong> {t('admin.system.trustedText', { proxies: info.trust_proxy.join(t('admin.listSeparator')) })}
                </>
              )}
            </p>
            {untrusted.length === 0 ? (
              <p className="muted" data-empty="untrusted-proxies">
                {t('admin.system.noUntrusted')}
              </p>
            ) : (
              <div className="notice paused" data-warning="untrusted-proxies">
                <p>
                  <strong>{tn('admin.system.untrustedTitle', untrusted.length)}</strong> {tn('admin.system.untrustedText', untrusted.length)}
                </p>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('admin.system.address')}</th>
                      <th scope="col">{t('admin.system.requests')}</th>
                      <th scope="col">{t('admin.system.firstSeen')}</th>
                      <th scope="col">{t('admin.system.lastSeen')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {untrusted.map((p) => (
                      <tr key={p.address}>
                        <td>{p.address}</td>
                        <td>{p.requests}</td>
                        <td>{formatDateTime(p.first_seen_at)}</td>
                        <td>{formatDateTime(p.last_seen_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p className="muted small">
                  {fillIn(t('admin.system.example'), {
                    example: <code dir="ltr">{trustProxyLine([...info.trust_proxy, ...untrusted.map((p) => p.address)])}</code>,
                  })}
                </p>
              </div>
            )}
          </>
        )}
      </section>
      <ExportCard />
    </section>
  );
}
