/**
 * Admin: System (GET /api/v1/system). How this instance reads its clients'
 * addresses: the proxies TRUST_PROXY lists, and any address that sent
 * X-Forwarded-For without being listed. Behind such a proxy every client
 * shares the proxy's address, and so its sign-in limits (docs/SECURITY.md §6):
 * the page says so and what to set, in the operator's words. The scheduled
 * backups: the last one, its result, and the next (BackupStatus). And the
 * account's data as one file (ExportCard).
 */
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { SystemInfo } from '../../types';
import { BackupStatus } from './BackupStatus';
import { ErrorText } from './ErrorText';
import { ExportCard } from './ExportCard';
import { VersionLine } from './VersionLine';

export function SystemPage() {
  const [info, setInfo] = useState<SystemInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.system().then(
      (s) => {
        setInfo(s);
        setError(null);
      },
      (err: unknown) => setError(`The system's state could not be read: ${errorText(err)} Try Refresh.`),
    );
  }, []);
  useEffect(load, [load]);

  const untrusted = info?.untrusted_proxies ?? [];
  return (
    <section className="page" aria-labelledby="system-title">
      <h1 id="system-title">System</h1>
      <VersionLine />
      <div className="row">
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
      <ErrorText error={error} />
      <section aria-labelledby="backups-title">
        <h2 id="backups-title">Backups</h2>
        {info === null ? !error && <p className="muted">Loading…</p> : <BackupStatus backups={info.backups} />}
      </section>
      <section aria-labelledby="proxies-title">
        <h2 id="proxies-title">Client addresses and proxies</h2>
        {info === null ? (
          !error && <p className="muted">Loading…</p>
        ) : (
          <>
            <p>
              {info.trust_proxy.length === 0 ? (
                <>
                  <strong>TRUST_PROXY is not set:</strong> every client has the address of its own connection, and X-Forwarded-For is ignored.
                </>
              ) : (
                <>
                  <strong>Trusted proxies (TRUST_PROXY):</strong> {info.trust_proxy.join(', ')}. Their X-Forwarded-For header gives the client&apos;s address.
                </>
              )}
            </p>
            {untrusted.length === 0 ? (
              <p className="muted" data-empty="untrusted-proxies">
                No request has come through a proxy that TRUST_PROXY does not list, since this instance started.
              </p>
            ) : (
              <div className="notice paused" data-warning="untrusted-proxies">
                <p>
                  <strong>Requests arrive through {untrusted.length === 1 ? 'a proxy' : `${untrusted.length} proxies`} that TRUST_PROXY does not list.</strong>{' '}
                  Every visitor and agent behind {untrusted.length === 1 ? 'it' : 'them'} shares the proxy&apos;s address, so failed sign-ins of anyone there
                  count against everyone there. If {untrusted.length === 1 ? 'this is' : 'these are'} your reverse proxy, add{' '}
                  {untrusted.length === 1 ? 'its address' : 'their addresses'} to TRUST_PROXY and restart Parley.
                </p>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Address</th>
                      <th scope="col">Requests</th>
                      <th scope="col">First seen</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {untrusted.map((p) => (
                      <tr key={p.address}>
                        <td>{p.address}</td>
                        <td>{p.requests}</td>
                        <td>{dateTime(p.first_seen_at)}</td>
                        <td>{dateTime(p.last_seen_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p className="muted small">
                  Example: <code>TRUST_PROXY={[...info.trust_proxy, ...untrusted.map((p) => p.address)].join(',')}</code>. Seen by this instance since it
                  started.
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
