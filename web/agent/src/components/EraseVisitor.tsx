/**
 * "Download visitor's data" and "Erase visitor" in the visitor panel
 * (administrators only; docs/DATA.md "Export" and "Erasure"): the download is
 * a plain link to GET /api/v1/visitors/:id/export; erasing asks a confirmation that says exactly what goes, then DELETE
 * /api/v1/visitors/:id and the job's progress (GET /api/v1/erasures/:id,
 * looked at every second) until it is done; then the visitor.erased frame
 * takes the visitor's chats off the lists (inbox.ts).
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { useSession } from '../context';
import { t, tn } from '../i18n';
import type { ErasureDto } from '../../../../protocol/agent';

const WHAT_GOES = ['workspace.erase.goesDetails', 'workspace.erase.goesChats', 'workspace.erase.goesCalls', 'workspace.erase.goesDeliveries'] as const;

function progressText(e: ErasureDto): string {
  if (e.status === 'done')
    return t('workspace.erase.done', {
      chats: tn('workspace.erase.chats', e.chats_total),
      messages: tn('workspace.erase.messages', e.messages_total),
      files: tn('workspace.erase.files', e.files_erased),
    });
  return t('workspace.erase.erasing', {
    messages: tn('workspace.erase.messagesOf', e.messages_total, { erased: e.messages_erased }),
    chats: tn('workspace.erase.chatsOf', e.chats_total, { erased: e.chats_erased }),
  });
}

export function EraseVisitor({ visitorId, visitorNumber }: { visitorId: number; visitorNumber: number }) {
  const { me } = useSession();
  const [asking, setAsking] = useState(false);
  const [erasure, setErasure] = useState<ErasureDto | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!erasure || erasure.status === 'done') return;
    const timer = setTimeout(() => {
      api.erasure(erasure.id).then(
        (r) => setErasure(r.erasure),
        (err: unknown) => setError(errorText(err)),
      );
    }, 1000);
    return () => clearTimeout(timer);
  }, [erasure]);

  if (me.role !== 'admin') return null;
  if (erasure) {
    const share = erasure.messages_total === 0 ? 1 : erasure.messages_erased / erasure.messages_total;
    return (
      <section className="erase-visitor" aria-label={t('workspace.erase.region')}>
        <p role="status">{progressText(erasure)}</p>
        <progress max={1} value={erasure.status === 'done' ? 1 : share} aria-label={t('workspace.erase.progress')} />
        {error && <p className="error">{error}</p>}
      </section>
    );
  }
  if (!asking) {
    return (
      <div className="row">
        {/* The sign-in cookie goes with a plain link: the browser saves the file (GET /api/v1/visitors/:id/export). */}
        <a className="button" href={`/api/v1/visitors/${visitorId}/export`} download data-action="export-visitor">
          {t('workspace.erase.download')}
        </a>
        <button type="button" className="danger erase" onClick={() => setAsking(true)}>
          {t('workspace.erase.button')}
        </button>
      </div>
    );
  }
  return (
    <section className="erase-visitor card" role="alertdialog" aria-labelledby="erase-title" aria-describedby="erase-what">
      <h4 id="erase-title">{t('workspace.erase.confirmTitle', { number: String(visitorNumber) })}</h4>
      <div id="erase-what">
        <p className="small">{t('workspace.erase.removes')}</p>
        <ul className="small">
          {WHAT_GOES.map((w) => (
            <li key={w}>{t(w)}</li>
          ))}
        </ul>
        <p className="small muted">{t('workspace.erase.stays')}</p>
      </div>
      {error && <p className="error">{error}</p>}
      <div className="form-actions">
        <button
          type="button"
          className="danger"
          onClick={async () => {
            setError(null);
            try {
              setErasure((await api.eraseVisitor(visitorId)).erasure);
            } catch (err) {
              setError(errorText(err));
            }
          }}
        >
          {t('workspace.erase.confirm')}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          {t('common.cancel')}
        </button>
      </div>
    </section>
  );
}
