/**
 * Admin: uploaded files (GET /api/v1/uploads/usage). How much of the upload
 * quotas the account's files take, by channel, and the visitors whose files
 * take the most; an admin frees a visitor's files to make room (the messages
 * stay, the file shown as removed). The result of a free is said above the
 * tables, and the usage is read again.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { formatNumber, t, tn } from '../../i18n';
import type { UploadUsageDto } from '../../../../../protocol/agent';
import { ConfirmButton } from './ConfirmButton';
import { ErrorText } from './ErrorText';
import { fillIn } from './fillIn';

/** "0 B", "512 B", "1.5 KB", "3.2 MB", the number in the agent's language. */
function size(bytes: number): string {
  const one = (n: number) => formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (bytes < 1024) return `${formatNumber(Math.max(0, bytes))} B`;
  if (bytes < 1024 * 1024) return `${one(bytes / 1024)} KB`;
  return `${one(bytes / 1024 / 1024)} MB`;
}
const share = (bytes: number, of: number): string => formatNumber(Math.min(1, Math.round((bytes / of) * 100) / 100), { style: 'percent' });

export function Files() {
  const [usage, setUsage] = useState<UploadUsageDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const load = useCallback(() => {
    api.uploadUsage().then(
      (u) => {
        setUsage(u);
        setError(null);
      },
      (err: unknown) => setError(t('admin.files.readError', { error: errorText(err) })),
    );
  }, []);
  useEffect(load, [load]);

  const free = async (visitorId: number, who: string) => {
    setError(null);
    setResult(null);
    try {
      const freed = await api.freeVisitorUploads(visitorId);
      setResult(
        freed.files === 0
          ? t('admin.files.nothingToFree', { who })
          : t('admin.files.freed', { size: size(freed.bytes), files: tn('admin.files.count', freed.files), who }),
      );
      load();
    } catch (err) {
      setError(t('admin.files.notFreed', { error: errorText(err) }));
    }
  };

  return (
    <section className="page" aria-labelledby="files-title">
      <h1 id="files-title">{t('admin.files.title')}</h1>
      <p className="muted small">{t('admin.files.intro')}</p>
      <div className="row">
        <button type="button" onClick={load}>
          {t('admin.refresh')}
        </button>
      </div>
      <ErrorText error={error} />
      {result && (
        <p role="status" className="saved">
          {result}
        </p>
      )}
      {usage && (
        <>
          <p>
            {fillIn(
              t('admin.files.used', {
                quota: size(usage.quota.account_bytes),
                share: share(usage.used.bytes, usage.quota.account_bytes),
                files: tn('admin.files.count', usage.used.files),
              }),
              { used: <strong>{size(usage.used.bytes)}</strong> },
            )}{' '}
            <span className="muted small">
              {t('admin.files.perChannel', { channel: size(usage.quota.channel_bytes), visitor: size(usage.quota.visitor_bytes) })}
            </span>
          </p>
          {usage.used.files === 0 && <p className="muted">{t('admin.files.none')}</p>}
          {usage.channels.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>{t('admin.files.byChannel')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('admin.files.channel')}</th>
                    <th scope="col">{t('admin.files.files')}</th>
                    <th scope="col">{t('admin.files.size')}</th>
                    <th scope="col">{t('admin.files.ofItsQuota')}</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.channels.map((c) => (
                    <tr key={c.channel_id ?? 'photos'}>
                      <td>
                        {c.channel_id === null ? (
                          <span className="muted">{t('admin.files.photos')}</span>
                        ) : (
                          (c.name ?? t('admin.files.channelNumber', { id: String(c.channel_id) }))
                        )}
                      </td>
                      <td>{c.files}</td>
                      <td>{size(c.bytes)}</td>
                      <td>{c.channel_id === null ? '' : share(c.bytes, usage.quota.channel_bytes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {usage.top_visitors.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>{t('admin.files.topVisitors')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('admin.files.visitor')}</th>
                    <th scope="col">{t('admin.files.files')}</th>
                    <th scope="col">{t('admin.files.size')}</th>
                    <th scope="col">{t('admin.files.ofTheirQuota')}</th>
                    <th scope="col">
                      <span className="sr-only">{t('admin.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {usage.top_visitors.map((v) => {
                    const number = String(v.number);
                    const who = v.name ? t('admin.files.namedVisitor', { name: v.name, number }) : t('admin.files.visitorNumber', { number });
                    return (
                      <tr key={v.visitor_id}>
                        <td className="break">{who}</td>
                        <td>{v.files}</td>
                        <td>{size(v.bytes)}</td>
                        <td>{share(v.bytes, usage.quota.visitor_bytes)}</td>
                        <td>
                          <ConfirmButton
                            label={t('admin.files.free')}
                            question={t('admin.files.freeQuestion', { who })}
                            onConfirm={() => free(v.visitor_id, who)}
                          />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
