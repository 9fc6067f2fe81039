/**
 * The Reports page (its own lazily loaded chunk, with uPlot): filters, the
 * period's totals against the previous period, and every report of
 * /api/v1/reports. Days and hours are the account's time zone (the answers
 * say which; "today" is computed in it). Admins see the whole account and
 * may filter by channel and agent; an agent sees only its own figures.
 */
import { useEffect, useMemo, useState } from 'react';
import { api, type ReportQuery } from '../../api';
import { useSession, useAgents } from '../../context';
import { formatDateTime, language, t } from '../../i18n';
import { daysBetween, presetRange, rangeProblem, todayIn } from '../../reports/model';
import type { ChannelDto, DepartmentDto } from '../../../../../protocol/agent';
import { Filters, type FilterState } from './Filters';
import {
  AgentsSection,
  BusiestHoursSection,
  ChannelsSection,
  ChatsSection,
  RatingsSection,
  ResponseTimesSection,
  Summary,
  type SectionContext,
} from './sections';
import { useReports } from './useReports';
import './reports.css';

const id = (v: string) => (v ? Number(v) : undefined);

/** A report day (YYYY-MM-DD, the account's calendar) as the language writes dates; English keeps the ISO form. */
function day(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms) || language() === 'en') return date;

  return formatDateTime(ms, { dateStyle: 'medium', timeZone: 'UTC' });
}

export default function ReportsPage() {
  const { me } = useSession();
  const { agents } = useAgents();
  const admin = me.role === 'admin';
  const [zone, setZone] = useState<string | null>(null);
  const today = todayIn(zone);
  const [filters, setFilters] = useState<FilterState>(() => {
    const week = presetRange('7d', todayIn(null));
    return { preset: '7d', from: week.from, to: week.to, interval: 'auto', channelId: '', departmentId: '', agentId: '', compare: true };
  });
  const [channels, setChannels] = useState<ChannelDto[] | null>(null);
  const [departments, setDepartments] = useState<DepartmentDto[]>([]);

  useEffect(() => {
    if (admin)
      api
        .channels()
        .then(setChannels)
        .catch(() => setChannels(null));
    api
      .departments()
      .then(setDepartments)
      .catch(() => setDepartments([]));
  }, [admin]);

  const range = filters.preset === 'custom' ? { from: filters.from, to: filters.to } : presetRange(filters.preset, today);
  const days = daysBetween(range.from, range.to);
  const problem = rangeProblem(range.from, range.to, filters.interval);
  const query: ReportQuery | null = problem
    ? null
    : {
        from: range.from,
        to: range.to,
        interval: filters.interval === 'auto' ? undefined : filters.interval,
        channel_id: id(filters.channelId),
        department_id: id(filters.departmentId),
        agent_id: admin ? id(filters.agentId) : undefined,
      };
  const { reports, loading, reload } = useReports(query, filters.compare);

  const answeredZone = reports.chats.data?.range.timezone ?? null;
  useEffect(() => {
    if (answeredZone) setZone(answeredZone);
  }, [answeredZone]);

  const onChange = (next: FilterState) => {
    // Custom starts from the range on screen.
    if (next.preset === 'custom' && filters.preset !== 'custom') next = { ...next, from: range.from, to: range.to };
    setFilters(next);
  };

  const split: SectionContext['split'] = !admin ? 'own' : filters.agentId ? 'agent' : filters.departmentId ? 'department' : null;
  const ctx: SectionContext = {
    splitByPerson: split !== null,
    split,
    filtered: Boolean(filters.channelId || filters.departmentId || filters.agentId),
    compare: filters.compare,
    onRetry: reload,
  };
  const agentList = useMemo(
    () =>
      admin
        ? Object.values(agents)
            .filter((a) => a.active)
            .sort((a, b) => a.name.localeCompare(b.name))
        : null,
    [admin, agents],
  );
  const r = reports.chats.data?.range;
  const slots = [reports.chats, reports.responseTimes, reports.ratings, reports.agents, reports.busiest];
  const sameError = slots.every((x) => x.error !== null && x.error === slots[0]?.error) ? reports.chats.error : null;

  return (
    <div className="page reports">
      <div className="report-title">
        <h1>{t('pages.nav.reports')}</h1>
        <p className="muted small" role="status">
          {loading
            ? t('pages.reports.updating')
            : r
              ? t(
                  filters.compare
                    ? r.interval === 'hour'
                      ? 'pages.reports.rangeByHourCompared'
                      : 'pages.reports.rangeByDayCompared'
                    : r.interval === 'hour'
                      ? 'pages.reports.rangeByHour'
                      : 'pages.reports.rangeByDay',
                  { from: day(r.from), to: day(r.to), zone: r.timezone, previousFrom: day(r.previous_from), previousTo: day(r.previous_to) },
                )
              : ''}
        </p>
      </div>
      {!admin && <p className="muted small">{t('pages.reports.ownFigures')}</p>}
      <Filters value={filters} onChange={onChange} days={days} channels={channels} departments={departments} agents={agentList} />
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {admin && r && <p className="muted small">{t('pages.reports.zoneNote', { zone: r.timezone })}</p>}
      {sameError ? (
        <div className="card report-failed" role="alert">
          <p className="error">{t('pages.reports.noneLoaded', { error: sameError })}</p>
          <button type="button" onClick={reload}>
            {t('common.retry')}
          </button>
        </div>
      ) : (
        <>
          <Summary chats={reports.chats.data} times={reports.responseTimes.data} ratings={reports.ratings.data} ctx={ctx} />
          <ChatsSection slot={reports.chats} previous={reports.previous.chats} ctx={ctx} />
          {admin && !filters.channelId && <ChannelsSection slot={reports.chats} channels={channels} ctx={ctx} />}
          <ResponseTimesSection slot={reports.responseTimes} previous={reports.previous.responseTimes} ctx={ctx} />
          <RatingsSection slot={reports.ratings} ctx={ctx} />
          <BusiestHoursSection slot={reports.busiest} ctx={ctx} />
          <AgentsSection slot={reports.agents} ctx={ctx} />
        </>
      )}
    </div>
  );
}
