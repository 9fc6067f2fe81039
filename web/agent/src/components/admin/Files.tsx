/**
 * Admin: uploaded files (GET /api/v1/uploads/usage). How much of the upload
 * quotas the account's files take, by channel, and the visitors whose files
 * take the most; an admin frees a visitor's files to make room (the messages
 * stay, the file shown as removed). The result of a free is said above the
 * tables, and the usage is read again.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api';
import { fileSize } from '../../format';
import type { UploadUsage } from '../../types';
import { ConfirmButton } from './ConfirmButton';
import { ErrorText } from './ErrorText';

const size = (bytes: number): string => (bytes === 0 ? '0 B' : fileSize(bytes));
const share = (bytes: number, of: number): string => `${Math.min(100, Math.round((bytes / of) * 100))}%`;

export function Files() {
  const [usage, setUsage] = useState<UploadUsage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const load = useCallback(() => {
    api.uploadUsage().then(
      (u) => {
        setUsage(u);
        setError(null);
      },
      (err: unknown) => setError(`The file usage could not be read: ${errorText(err)} Try Refresh.`),
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
          ? `Nothing to free: ${who} has no stored files any more.`
          : `Freed ${size(freed.bytes)} (${freed.files} ${freed.files === 1 ? 'file' : 'files'}) of ${who}. Their messages stay, the files shown as removed.`,
      );
      load();
    } catch (err) {
      setError(`Not freed: ${errorText(err)}`);
    }
  };

  return (
    <section className="page" aria-labelledby="files-title">
      <h1 id="files-title">Files</h1>
      <p className="muted small">
        Files visitors and agents send are kept while their messages are. Each visitor, each channel and the whole account may keep only so much (set by the
        server&apos;s UPLOAD_QUOTA_VISITOR_MB, UPLOAD_QUOTA_CHANNEL_MB and UPLOAD_QUOTA_MB); past that, new files are refused. Free a visitor&apos;s files to
        make room: their messages stay, with the file shown as removed.
      </p>
      <div className="row">
        <button type="button" onClick={load}>
          Refresh
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
            <strong>{size(usage.used.bytes)}</strong> of {size(usage.quota.account_bytes)} used ({share(usage.used.bytes, usage.quota.account_bytes)}),{' '}
            {usage.used.files} {usage.used.files === 1 ? 'file' : 'files'}.{' '}
            <span className="muted small">
              Per channel: {size(usage.quota.channel_bytes)}; per visitor: {size(usage.quota.visitor_bytes)}.
            </span>
          </p>
          {usage.used.files === 0 && <p className="muted">No files are stored yet: nobody has sent a file, or every file was freed.</p>}
          {usage.channels.length > 0 && (
            <div className="table-wrap">
              <table>
                <caption>By channel</caption>
                <thead>
                  <tr>
                    <th scope="col">Channel</th>
                    <th scope="col">Files</th>
                    <th scope="col">Size</th>
                    <th scope="col">Of its quota</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.channels.map((c) => (
                    <tr key={c.channel_id ?? 'photos'}>
                      <td>{c.channel_id === null ? <span className="muted">Agents&apos; photos</span> : (c.name ?? `Channel ${c.channel_id}`)}</td>
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
                <caption>Visitors whose files take the most</caption>
                <thead>
                  <tr>
                    <th scope="col">Visitor</th>
                    <th scope="col">Files</th>
                    <th scope="col">Size</th>
                    <th scope="col">Of their quota</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {usage.top_visitors.map((v) => {
                    const who = v.name ? `${v.name} (visitor #${v.number})` : `visitor #${v.number}`;
                    return (
                      <tr key={v.visitor_id}>
                        <td className="break">{who}</td>
                        <td>{v.files}</td>
                        <td>{size(v.bytes)}</td>
                        <td>{share(v.bytes, usage.quota.visitor_bytes)}</td>
                        <td>
                          <ConfirmButton
                            label="Free files"
                            question={`Delete the files of ${who}? Their messages stay.`}
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
