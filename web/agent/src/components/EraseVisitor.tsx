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
import { useApp } from '../context';
import type { Erasure } from '../types';

const WHAT_GOES = [
  'the visitor’s details: name, e-mail, phone, session and pages',
  'every chat of the visitor, with all messages, notes and files',
  'calls, offline messages and transcript mails',
  'the webhooks and mails sent about the visitor, and the search index entries',
];

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function progressText(e: Erasure): string {
  if (e.status === 'done') return `Erased: ${count(e.chats_total, 'chat')}, ${count(e.messages_total, 'message')}, ${count(e.files_erased, 'file')}.`;
  return `Erasing… ${e.messages_erased} of ${count(e.messages_total, 'message')}, ${e.chats_erased} of ${count(e.chats_total, 'chat')}.`;
}

export function EraseVisitor({ visitorId, visitorNumber }: { visitorId: number; visitorNumber: number }) {
  const { me } = useApp();
  const [asking, setAsking] = useState(false);
  const [erasure, setErasure] = useState<Erasure | null>(null);
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
      <section className="erase-visitor" aria-label="Erasure">
        <p role="status">{progressText(erasure)}</p>
        <progress max={1} value={erasure.status === 'done' ? 1 : share} aria-label="Erasure progress" />
        {error && <p className="error">{error}</p>}
      </section>
    );
  }
  if (!asking) {
    return (
      <div className="row">
        {/* The sign-in cookie goes with a plain link: the browser saves the file (GET /api/v1/visitors/:id/export). */}
        <a className="button" href={`/api/v1/visitors/${visitorId}/export`} download data-action="export-visitor">
          Download visitor’s data
        </a>
        <button type="button" className="danger erase" onClick={() => setAsking(true)}>
          Erase visitor
        </button>
      </div>
    );
  }
  return (
    <section className="erase-visitor card" role="alertdialog" aria-labelledby="erase-title" aria-describedby="erase-what">
      <h4 id="erase-title">Erase visitor {visitorNumber} everywhere?</h4>
      <div id="erase-what">
        <p className="small">This removes for good, and cannot be undone:</p>
        <ul className="small">
          {WHAT_GOES.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        <p className="small muted">
          Report totals stay. A later message from the same person starts a new visitor. If they asked for a copy of their data, download it first.
        </p>
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
          Erase for good
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </section>
  );
}
