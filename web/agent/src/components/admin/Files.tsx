/**
 * Admin: uploaded files (GET /api/v1/uploads/usage). How much of the upload
 * quotas the account's files take, by channel, and the visitors whose files
 * take the most; an admin frees a visitor's files to make room (the messages
 * stay, the file shown as removed). The result of a free is said above the
 * tables, and the usage is read again.
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { formatNumber, t, tn } from '../../i18n';
import type { UploadUsageDto } from '../../../../../protocol/agent';
import { ConfirmButton } from './ConfirmButton';
import { DataTable, Outcome, RefreshRow } from './DataTable';
import { fillIn } from './fillIn';
import { useLoaded } from './useLoaded';

/** "0 B", "512 B", "1.5 KB", "3.2 MB", the number in the agent's language. */
function size(bytes: number): string {
  const one = (n: number) => formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (bytes < 1024) return `${formatNumber(Math.max(0, bytes))} B`;
  if (bytes < 1024 * 1024) return `${one(bytes / 1024)} KB`;
  return `${one(bytes / 1024 / 1024)} MB`;
}
const share = (bytes: number, of: number): string => formatNumber(Math.min(1, Math.round((bytes / of) * 100) / 100), { style: 'percent' });

export function Files() {
  const { value: usage, error, setError, load } = useLoaded<UploadUsageDto>(() => api.uploadUsage(), 'admin.files.readError');
  const [result, setResult] = useState<string | null>(null);

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
      <RefreshRow onRefresh={load} />
      <Outcome error={error} result={result} />
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
            <DataTable
              caption={t('admin.files.byChannel')}
              columns={[t('admin.files.channel'), t('admin.files.files'), t('admin.files.size'), t('admin.files.ofItsQuota')]}
            >
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
            </DataTable>
          )}
          {usage.top_visitors.length > 0 && (
            <DataTable
              caption={t('admin.files.topVisitors')}
              columns={[t('admin.files.visitor'), t('admin.files.files'), t('admin.files.size'), t('admin.files.ofTheirQuota')]}
              actions
            >
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
            </DataTable>
          )}
        </>
      )}
    </section>
  );
}
