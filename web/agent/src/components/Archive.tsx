/**
 * Finished chats, newest first, a page at a time, with a search by visitor
 * name, e-mail, phone or message text. The search runs in the browser over
 * the pages loaded so far (the API has no search yet); for message text it
 * fetches the loaded chats' messages once, a few at a time.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api';
import { useApp } from '../context';
import { chatsWithStatus } from '../inbox';
import { ChatList } from './ChatList';

const PAGE = 50;
const PARALLEL = 4;

export function Archive() {
  const { inbox, dispatch } = useApp();
  const [more, setMore] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [scanning, setScanning] = useState(0);
  const finished = chatsWithStatus(inbox, 'finished');
  const oldest = finished.length > 0 ? finished[finished.length - 1].id : undefined;

  const loadPage = useCallback(
    async (before?: number) => {
      setBusy(true);
      setError(null);
      try {
        const page = await api.chats('finished', { limit: PAGE, before });
        dispatch({ type: 'chats', chats: page });
        setMore(page.length === PAGE);
      } catch (err) {
        setError(errorText(err));
      } finally {
        setBusy(false);
      }
    },
    [dispatch],
  );

  useEffect(() => {
    void loadPage();
  }, [loadPage]);

  const q = query.trim().toLowerCase();
  const requested = useRef(new Set<number>());
  const searching = q !== '';

  // Message text lives with each chat: fetch the loaded chats' messages once, when a search needs them.
  useEffect(() => {
    if (!searching) return;
    const queue = finished.map((c) => c.id).filter((id) => !inbox.messages[id] && !requested.current.has(id));
    if (queue.length === 0) return;
    for (const id of queue) requested.current.add(id);
    setScanning((n) => n + queue.length);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          dispatch({ type: 'chat', chat: await api.chat(id) });
        } catch {
          // a chat that cannot be read stays unsearchable by text
        }
        setScanning((n) => n - 1);
      }
    };
    void Promise.all(Array.from({ length: PARALLEL }, worker));
    // Runs again when the search starts or another page arrives, not for every chat fetched.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose: see the line above
  }, [searching, finished.length]);

  const results = q
    ? finished.filter((c) => {
        const v = c.visitor;
        if ([v.name, v.email, v.phone].some((s) => s?.toLowerCase().includes(q))) return true;
        return (inbox.messages[c.id] ?? []).some((m) => m.text?.toLowerCase().includes(q));
      })
    : finished;

  return (
    <section className="page" aria-labelledby="archive-title">
      <h1 id="archive-title">Archive</h1>
      <form role="search" className="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search finished chats
          <input type="search" name="q" value={query} placeholder="Visitor name, e-mail, phone or message text" onChange={(e) => setQuery(e.target.value)} />
        </label>
      </form>
      <p className="muted small" role="status">
        {q
          ? `${results.length} of ${finished.length} loaded chats match${scanning > 0 ? ' (searching message text…)' : ''}.`
          : `${finished.length} chats loaded.`}
      </p>
      <ChatList chats={results} openId={null} empty={q ? 'No loaded chat matches.' : 'No finished chat yet.'} label="Finished chats" />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {more && (
        <button type="button" disabled={busy} onClick={() => void loadPage(oldest)}>
          {busy ? 'Loading…' : 'Load older chats'}
        </button>
      )}
    </section>
  );
}
