/**
 * The archive: every chat of the history, searched on the server
 * (GET /api/v1/chats/search) by message text, visitor name, e-mail or phone,
 * with filters (status, rating, dates, agent, department, channel: the
 * channels the agent sees, GET /api/v1/me/channels, shown when there is more
 * than one), newest first, a page at a time. Each match shows its excerpt with the matching
 * words marked; the list renders only the rows in view.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, errorText, type SearchFilters } from '../api';
import { useAgents } from '../context';
import { t, tn } from '../i18n';
import type { ChannelRefDto, ChatDto, ChatMatchDto, ChatSearchHitDto, DepartmentDto } from '../../../../protocol/agent';
import { ChatList } from './ChatList';

const PAGE = 100;
const TYPING_PAUSE_MS = 300;

interface Form {
  q: string;
  status: ChatDto['status'] | '';
  rating: SearchFilters['rating'] | '';
  from: string;
  to: string;
  agent: string;
  department: string;
  channel: string;
}

const EMPTY: Form = { q: '', status: 'finished', rating: '', from: '', to: '', agent: '', department: '', channel: '' };

/** The form as the API's filters; dates are the agent's local days. */
function filtersOf(form: Form): SearchFilters {
  const localDay = (day: string, next: boolean) => {
    const d = new Date(`${day}T00:00:00`);
    if (next) d.setDate(d.getDate() + 1);
    return d.toISOString();
  };
  return {
    q: form.q.trim() || undefined,
    status: form.status || undefined,
    rating: form.rating || undefined,
    from: form.from ? localDay(form.from, false) : undefined,
    to: form.to ? localDay(form.to, true) : undefined,
    agent_id: form.agent ? Number(form.agent) : undefined,
    department_id: form.department ? Number(form.department) : undefined,
    channel_id: form.channel ? Number(form.channel) : undefined,
  };
}

export function Archive() {
  const { agents } = useAgents();
  const [form, setForm] = useState<Form>(EMPTY);
  const [filters, setFilters] = useState<SearchFilters>(() => filtersOf(EMPTY));
  const [hits, setHits] = useState<ChatSearchHitDto[]>([]);
  // The filters the list on screen answers. Until a new search's answer arrives the list still shows the last one's rows,
  // so it is labelled and marked by these, never by the words just typed (they have no match excerpt yet).
  const [shown, setShown] = useState<SearchFilters | null>(null);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [departments, setDepartments] = useState<DepartmentDto[]>([]);
  const [channels, setChannels] = useState<ChannelRefDto[]>([]);
  const round = useRef(0);

  useEffect(() => {
    api.departments().then(setDepartments, () => {});
    // Every agent filters by the channels it sees (an administrator sees them all).
    api.myChannels().then(setChannels, () => {});
  }, []);

  // A change searches after a pause in typing. The same filters again (the first pause after mount, a field typed and erased) keep
  // the state as it is: a new search would drop the older pages already loaded.
  useEffect(() => {
    const next = filtersOf(form);
    const timer = window.setTimeout(() => setFilters((now) => (JSON.stringify(now) === JSON.stringify(next) ? now : next)), TYPING_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [form]);

  const load = async (before?: number) => {
    const mine = ++round.current;
    setBusy(true);
    setError(null);
    try {
      const page = await api.searchChats(filters, { limit: PAGE, before });
      if (mine !== round.current) return;
      if (before === undefined) {
        setHits(page);
        setShown(filters);
      } else setHits((list) => [...list, ...page]);
      setMore(page.length === PAGE);
    } catch (err) {
      if (mine === round.current) setError(errorText(err));
    } finally {
      if (mine === round.current) setBusy(false);
    }
  };

  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new search when the filters change, not when load's closure does
  }, [filters]);

  const matches = useMemo(() => Object.fromEntries(hits.map((h) => [h.id, h.match])) as Record<number, ChatMatchDto | null>, [hits]);
  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const searching = Boolean(shown?.q);
  const newSearch = busy && shown !== filters;

  return (
    <section className="page" aria-labelledby="archive-title">
      <h1 id="archive-title">{t('pages.archive.title')}</h1>
      <form role="search" className="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('pages.archive.search')}
          <input type="search" name="q" value={form.q} maxLength={200} placeholder={t('pages.archive.searchHint')} onChange={set('q')} />
        </label>
      </form>
      <div className="archive-filters" aria-label={t('pages.archive.filters')}>
        <label>
          {t('pages.archive.status')}
          <select name="status" value={form.status} onChange={set('status')}>
            <option value="finished">{t('pages.archive.finished')}</option>
            <option value="active">{t('pages.archive.active')}</option>
            <option value="pending">{t('pages.archive.waiting')}</option>
            <option value="">{t('pages.archive.anyStatus')}</option>
          </select>
        </label>
        <label>
          {t('pages.archive.rating')}
          <select name="rating" value={form.rating} onChange={set('rating')}>
            <option value="">{t('pages.archive.anyRating')}</option>
            <option value="positive">{t('pages.archive.ratedGood')}</option>
            <option value="negative">{t('pages.archive.ratedBad')}</option>
            <option value="none">{t('pages.archive.notRated')}</option>
          </select>
        </label>
        <label>
          {t('pages.archive.from')}
          <input type="date" name="from" value={form.from} onChange={set('from')} />
        </label>
        <label>
          {t('pages.archive.to')}
          <input type="date" name="to" value={form.to} onChange={set('to')} />
        </label>
        <label>
          {t('pages.archive.agent')}
          <select name="agent" value={form.agent} onChange={set('agent')}>
            <option value="">{t('pages.archive.anyAgent')}</option>
            {Object.values(agents).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        {departments.length > 0 && (
          <label>
            {t('pages.archive.department')}
            <select name="department" value={form.department} onChange={set('department')}>
              <option value="">{t('pages.archive.anyDepartment')}</option>
              {departments.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {channels.length > 1 && (
          <label>
            {t('pages.archive.channel')}
            <select name="channel" value={form.channel} onChange={set('channel')}>
              <option value="">{t('pages.archive.anyChannel')}</option>
              {channels.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {JSON.stringify(form) !== JSON.stringify(EMPTY) && (
          <button type="button" className="link" onClick={() => setForm(EMPTY)}>
            {t('pages.archive.clear')}
          </button>
        )}
      </div>
      <p className="muted small" role="status">
        {newSearch
          ? t('pages.archive.searching')
          : tn(
              searching ? (more ? 'pages.archive.matchesMore' : 'pages.archive.matches') : more ? 'pages.archive.chatsMore' : 'pages.archive.chats',
              hits.length,
            )}
      </p>
      {error && (
        <p className="error" role="alert">
          {t('pages.archive.failed', { error })}
        </p>
      )}
      {shown ? (
        <ChatList
          chats={hits}
          openId={null}
          withDate
          matches={searching ? matches : undefined}
          empty={searching ? t('pages.archive.noMatch') : t('pages.archive.noChat')}
          label={searching ? t('pages.archive.matching') : t('pages.archive.chatsLabel')}
        />
      ) : null}
      {more && (
        <button type="button" disabled={busy} onClick={() => void load(hits[hits.length - 1]?.id)}>
          {busy && !newSearch ? t('common.loading') : t('pages.archive.older')}
        </button>
      )}
    </section>
  );
}
