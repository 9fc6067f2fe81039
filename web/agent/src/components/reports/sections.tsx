/**
 * The reports of the page, each a ReportSection: chats by kind, response
 * times (first response and duration: median and 90th percentile), ratings,
 * busiest hours (heat map) and the per-agent table; plus the summary of
 * totals against the previous period.
 */
import { useMemo } from 'react';
import {
  agentsCsv,
  bucketTitle,
  busiestHoursCsv,
  change,
  channelsCsv,
  chatsCsv,
  count,
  csvName,
  duration,
  ratingsCsv,
  responseTimesCsv,
  share,
  type AgentsReport,
  type BusiestHoursReport,
  type ChatCounts,
  type ChatsReport,
  type RatingsReport,
  type ResponseTimesReport,
  type TimeFigures,
} from '../../reports/model';
import { formatNumber, t, tn, useLanguage } from '../../i18n';
import type { TextKey } from '../../i18n/en';

import { HeatLegend, HeatMap } from './HeatMap';
import { ReportSection } from './ReportSection';
import { TimeChart, type ChartSeries } from './TimeChart';
import type { ChannelDto } from '../../../../../protocol/agent';
import type { Slot } from './useReports';

const COLORS = { started: '#2f6fed', accepted: '#1e8e3e', missed: '#c0392b', offline: '#b26a00', callbacks: '#7b4fd6', previous: '#8c96a8' };

export interface SectionContext {
  /** Department or agent filter set: offline messages and callbacks are not split that way. */
  splitByPerson: boolean;
  /** Which of those: 'agent' (an admin's agent filter), 'own' (an agent's own figures), 'department'. */
  split: 'agent' | 'own' | 'department' | null;
  /** Any filter set (for the empty states' advice). */
  filtered: boolean;
  compare: boolean;
  onRetry: () => void;
}

const SPLIT_NOTES: Record<'none' | 'agent' | 'own' | 'department', TextKey> = {
  none: 'pages.reports.noteNone',
  agent: 'pages.reports.noteAgent',
  own: 'pages.reports.noteOwn',
  department: 'pages.reports.noteDepartment',
};

/** An empty report's sentence: what there is none of, in this period (with these filters), and what to do. */
const NOTHING = {
  started: ['pages.reports.noneStarted', 'pages.reports.noneStartedFiltered'],
  answered: ['pages.reports.noneAnswered', 'pages.reports.noneAnsweredFiltered'],
  rated: ['pages.reports.noneRated', 'pages.reports.noneRatedFiltered'],
} as const satisfies Record<string, readonly [TextKey, TextKey]>;

function nothing(what: keyof typeof NOTHING, ctx: SectionContext): string {
  return t(NOTHING[what][ctx.filtered ? 1 : 0]);
}

const bucketHead = (interval: 'day' | 'hour'): string => (interval === 'hour' ? t('pages.reports.hour') : t('pages.reports.day'));

/** Previous period's values aligned with the current buckets (by position). */
function aligned<T>(current: unknown[], previous: T[] | undefined, pick: (x: T) => number | null): (number | null)[] {
  return current.map((_, i) => (previous && previous[i] ? pick(previous[i]) : null));
}

function Delta({ current, previous, higherIsBetter }: { current: number | null; previous: number | null; higherIsBetter: boolean | null }) {
  const c = change(current, previous, higherIsBetter);
  const tone = c.better === null ? 'neutral' : c.better ? 'good' : 'bad';
  return <span className={`delta delta-${tone}`}>{c.text}</span>;
}

function Kpi(props: {
  label: string;
  value: string;
  current: number | null;
  previous: number | null;
  previousText: string;
  higherIsBetter: boolean | null;
  compare: boolean;
}) {
  return (
    <li className="kpi">
      <span className="kpi-label">{props.label}</span>
      <strong className="kpi-value">{props.value}</strong>
      {props.compare && props.previous === null && <span className="kpi-change small muted">{t('pages.reports.noneBefore')}</span>}
      {props.compare && props.previous !== null && (
        <span className="kpi-change small">
          <Delta current={props.current} previous={props.previous} higherIsBetter={props.higherIsBetter} />
          <span className="muted"> {t('pages.reports.versus', { previous: props.previousText })}</span>
        </span>
      )}
    </li>
  );
}

function NotSplit({ label, why }: { label: string; why: string }) {
  return (
    <li className="kpi">
      <span className="kpi-label">{label}</span>
      <strong className="kpi-value">{t('pages.reports.notApplicable')}</strong>
      <span className="small muted">{why}</span>
    </li>
  );
}

export function Summary({
  chats,
  times,
  ratings,
  ctx,
}: {
  chats: ChatsReport | null;
  times: ResponseTimesReport | null;
  ratings: RatingsReport | null;
  ctx: SectionContext;
}) {
  if (!chats && !times && !ratings) return null;
  const k = (label: string, cur: number | null, prev: number | null, show: (v: number | null) => string, higherIsBetter: boolean | null) => (
    <Kpi
      key={label}
      label={label}
      value={show(cur)}
      current={cur}
      previous={prev}
      previousText={show(prev)}
      higherIsBetter={higherIsBetter}
      compare={ctx.compare}
    />
  );
  const n = (v: number | null) => (v === null ? '–' : count(v));
  return (
    <ul className="kpis" aria-label={t('pages.reports.totals')}>
      {chats && k(t('pages.reports.chatsStarted'), chats.totals.started, chats.previous.started, n, null)}
      {chats && k(t('pages.reports.accepted'), chats.totals.accepted, chats.previous.accepted, n, true)}
      {chats &&
        (ctx.split === 'agent' || ctx.split === 'own' ? (
          <NotSplit label={t('pages.reports.missed')} why={t('pages.reports.missedNotSplit')} />
        ) : (
          k(t('pages.reports.missed'), chats.totals.missed, chats.previous.missed, n, false)
        ))}
      {times && k(t('pages.reports.medianFirst'), times.totals.first_response.median_s, times.previous.first_response.median_s, duration, false)}
      {times && k(t('pages.reports.medianDuration'), times.totals.duration.median_s, times.previous.duration.median_s, duration, null)}
      {ratings && k(t('pages.reports.positiveRatings'), ratings.totals.positive_share, ratings.previous.positive_share, share, true)}
      {chats &&
        (ctx.splitByPerson ? (
          <NotSplit label={t('pages.offline.title')} why={t('pages.reports.notSplit')} />
        ) : (
          k(t('pages.offline.title'), chats.totals.offline_messages, chats.previous.offline_messages, n, null)
        ))}
    </ul>
  );
}

export function ChatsSection({ slot, previous, ctx }: { slot: Slot<ChatsReport>; previous: ChatsReport | null; ctx: SectionContext }) {
  const r = slot.data;
  // The series' names are texts: built again when the language changes.
  const language = useLanguage();
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const series = useMemo((): ChartSeries[] => {
    if (!r) return [];
    const s: ChartSeries[] = [
      { label: t('pages.reports.started'), values: r.series.map((b) => b.started), color: COLORS.started, area: true, format: count },
      { label: t('pages.reports.accepted'), values: r.series.map((b) => b.accepted), color: COLORS.accepted, format: count },
    ];
    if (ctx.split !== 'agent' && ctx.split !== 'own')
      s.push({ label: t('pages.reports.missed'), values: r.series.map((b) => b.missed), color: COLORS.missed, format: count });
    if (!ctx.splitByPerson) {
      s.push({ label: t('pages.offline.title'), values: r.series.map((b) => b.offline_messages), color: COLORS.offline, format: count });
      s.push({ label: t('pages.reports.callbacks'), values: r.series.map((b) => b.callbacks), color: COLORS.callbacks, format: count });
    }
    if (ctx.compare && previous)
      s.push({
        label: t('pages.reports.startedBefore'),
        values: aligned(r.series, previous.series, (b) => b.started),
        color: COLORS.previous,
        dashed: true,
        format: count,
      });
    return s;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- language: the labels are read in it
  }, [r, previous, ctx.splitByPerson, ctx.split, ctx.compare, language]);
  const totals = r?.totals;
  const none = totals ? totals.started + (ctx.splitByPerson ? 0 : totals.offline_messages + totals.callbacks) === 0 : false;
  return (
    <ReportSection
      id="report-chats"
      title={t('pages.reports.chats')}
      note={t(SPLIT_NOTES[ctx.split ?? 'none'])}
      csv={r ? () => chatsCsv(r) : null}
      csvName={r ? csvName('chats', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : none ? nothing('started', ctx) : null}
      chart={<TimeChart title={t('pages.reports.chats')} labels={labels} series={series} unit="count" yLabel={t('pages.reports.chats')} />}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">{bucketHead(r.range.interval)}</th>
                <th scope="col">{t('pages.reports.started')}</th>
                <th scope="col">{t('pages.reports.accepted')}</th>
                <th scope="col">{t('pages.reports.missed')}</th>
                {!ctx.splitByPerson && <th scope="col">{t('pages.offline.title')}</th>}
                {!ctx.splitByPerson && <th scope="col">{t('pages.reports.callbacks')}</th>}
              </tr>
            </thead>
            <tbody>
              {r.series.map((b) => (
                <tr key={b.start}>
                  <th scope="row">{bucketTitle(b.label)}</th>
                  <td>{count(b.started)}</td>
                  <td>{count(b.accepted)}</td>
                  <td>{count(b.missed)}</td>
                  {!ctx.splitByPerson && <td>{count(b.offline_messages)}</td>}
                  {!ctx.splitByPerson && <td>{count(b.callbacks)}</td>}
                </tr>
              ))}
            </tbody>
            <tfoot>
              {(
                [
                  [t('pages.reports.total'), r.totals],
                  ...(ctx.compare ? [[t('pages.reports.previousRange', { from: r.range.previous_from, to: r.range.previous_to }), r.previous]] : []),
                ] as [string, ChatCounts][]
              ).map(([label, c]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{count(c.started)}</td>
                  <td>{count(c.accepted)}</td>
                  <td>{count(c.missed)}</td>
                  {!ctx.splitByPerson && <td>{count(c.offline_messages)}</td>}
                  {!ctx.splitByPerson && <td>{count(c.callbacks)}</td>}
                </tr>
              ))}
            </tfoot>
          </table>
        )
      }
    />
  );
}

/** Chats per channel over the period (admins, every channel): the API's by_channel, with the channels' names. */
export function ChannelsSection({ slot, channels, ctx }: { slot: Slot<ChatsReport>; channels: ChannelDto[] | null; ctx: SectionContext }) {
  const r = slot.data;
  const nameOf = (id: number) => channels?.find((c) => c.id === id)?.name ?? t('pages.reports.deletedChannel', { id: String(id) });
  const rows = r ? r.by_channel.filter((c) => c.started + c.offline_messages + c.callbacks > 0) : [];
  return (
    <ReportSection
      id="report-channels"
      title={t('pages.reports.byChannel')}
      note={t('pages.reports.byChannelNote')}
      csv={r ? () => channelsCsv(r, nameOf) : null}
      csvName={r ? csvName('channels', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : rows.length === 0 ? nothing('started', ctx) : null}
      toggle={false}
      chart={null}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('pages.archive.channel')}</th>
                <th scope="col">{t('pages.reports.started')}</th>
                <th scope="col">{t('pages.reports.accepted')}</th>
                <th scope="col">{t('pages.reports.missed')}</th>
                {!ctx.splitByPerson && <th scope="col">{t('pages.offline.title')}</th>}
                {!ctx.splitByPerson && <th scope="col">{t('pages.reports.callbacks')}</th>}
                <th scope="col">{t('pages.reports.shareOfChats')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.channel_id}>
                  <th scope="row">{nameOf(c.channel_id)}</th>
                  <td>{count(c.started)}</td>
                  <td>{count(c.accepted)}</td>
                  <td>{count(c.missed)}</td>
                  {!ctx.splitByPerson && <td>{count(c.offline_messages)}</td>}
                  {!ctx.splitByPerson && <td>{count(c.callbacks)}</td>}
                  <td>{share(r.totals.started === 0 ? null : c.started / r.totals.started)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    />
  );
}

function timeSeries(
  r: ResponseTimesReport,
  previous: ResponseTimesReport | null,
  which: 'first_response' | 'duration',
  compare: boolean,
  colors: [string, string],
): ChartSeries[] {
  const s: ChartSeries[] = [
    { label: t('pages.reports.median'), values: r.series.map((b) => b[which].median_s), color: colors[0], format: duration },
    { label: t('pages.reports.p90'), values: r.series.map((b) => b[which].p90_s), color: colors[1], format: duration },
  ];
  if (compare && previous)
    s.push({
      label: t('pages.reports.medianBefore'),
      values: aligned(r.series, previous.series, (b) => b[which].median_s),
      color: COLORS.previous,
      dashed: true,
      format: duration,
    });
  return s;
}

const FIGURE_HEADS: readonly TextKey[] = ['pages.reports.chats', 'pages.reports.median', 'pages.reports.p90Short', 'pages.reports.average'];

const figureCells = (f: TimeFigures) => [count(f.count), duration(f.median_s), duration(f.p90_s), duration(f.average_s)];

export function ResponseTimesSection({ slot, previous, ctx }: { slot: Slot<ResponseTimesReport>; previous: ResponseTimesReport | null; ctx: SectionContext }) {
  const r = slot.data;
  const language = useLanguage();
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const first = useMemo(
    () => (r ? timeSeries(r, previous, 'first_response', ctx.compare, [COLORS.started, COLORS.callbacks]) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- language: the labels are read in it
    [r, previous, ctx.compare, language],
  );
  const length = useMemo(
    () => (r ? timeSeries(r, previous, 'duration', ctx.compare, [COLORS.accepted, COLORS.offline]) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- language: the labels are read in it
    [r, previous, ctx.compare, language],
  );
  const none = r ? r.totals.first_response.count + r.totals.duration.count === 0 : false;
  return (
    <ReportSection
      id="report-times"
      title={t('pages.reports.responseTimes')}
      note={t('pages.reports.responseTimesNote')}
      csv={r ? () => responseTimesCsv(r) : null}
      csvName={r ? csvName('response-times', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : none ? nothing('answered', ctx) : null}
      chart={
        <div className="chart-pair">
          <div>
            <h3>{t('pages.reports.firstResponse')}</h3>
            <TimeChart
              title={t('pages.reports.firstResponseTime')}
              labels={labels}
              series={first}
              unit="duration"
              yLabel={t('pages.reports.timeToFirstReply')}
              height={220}
            />
          </div>
          <div>
            <h3>{t('pages.reports.chatDuration')}</h3>
            <TimeChart
              title={t('pages.reports.chatDuration')}
              labels={labels}
              series={length}
              unit="duration"
              yLabel={t('pages.reports.duration')}
              height={220}
            />
          </div>
        </div>
      }
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col" rowSpan={2}>
                  {bucketHead(r.range.interval)}
                </th>
                <th scope="colgroup" colSpan={4}>
                  {t('pages.reports.firstResponse')}
                </th>
                <th scope="colgroup" colSpan={4}>
                  {t('pages.reports.duration')}
                </th>
              </tr>
              <tr>
                {[...FIGURE_HEADS, ...FIGURE_HEADS].map((h, i) => (
                  <th scope="col" key={i}>
                    {t(h)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[
                ...r.series.map((b) => [bucketTitle(b.label), b] as const),
                [t('pages.reports.total'), r.totals] as const,
                ...(ctx.compare ? [[t('pages.reports.previous'), r.previous] as const] : []),
              ].map(([label, f]) => (
                <tr key={'start' in f ? `${label}${String(f.start)}` : label}>
                  <th scope="row">{label}</th>
                  {[...figureCells(f.first_response), ...figureCells(f.duration)].map((v, i) => (
                    <td key={i}>{v}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    />
  );
}

export function RatingsSection({ slot, ctx }: { slot: Slot<RatingsReport>; ctx: SectionContext }) {
  const r = slot.data;
  const language = useLanguage();
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const series = useMemo(
    (): ChartSeries[] =>
      r
        ? [
            { label: t('pages.reports.positive'), values: r.series.map((b) => b.positive), color: COLORS.accepted, bars: -1, format: count },
            { label: t('pages.reports.negative'), values: r.series.map((b) => b.negative), color: COLORS.missed, bars: 1, format: count },
          ]
        : [],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- language: the labels are read in it
    [r, language],
  );
  const none = r ? r.totals.positive + r.totals.negative === 0 : false;
  return (
    <ReportSection
      id="report-ratings"
      title={t('pages.reports.ratings')}
      note={r && !none ? tn('pages.reports.ratingsNote', r.totals.positive + r.totals.negative, { share: share(r.totals.positive_share) }) : undefined}
      csv={r ? () => ratingsCsv(r) : null}
      csvName={r ? csvName('ratings', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : none ? nothing('rated', ctx) : null}
      chart={<TimeChart title={t('pages.reports.ratings')} labels={labels} series={series} unit="count" yLabel={t('pages.reports.ratedChats')} />}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">{bucketHead(r.range.interval)}</th>
                <th scope="col">{t('pages.reports.positive')}</th>
                <th scope="col">{t('pages.reports.negative')}</th>
                <th scope="col">{t('pages.reports.positiveShare')}</th>
              </tr>
            </thead>
            <tbody>
              {[...r.series.map((b) => [bucketTitle(b.label), b] as const), [t('pages.reports.total'), r.totals] as const].map(([label, b]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{count(b.positive)}</td>
                  <td>{count(b.negative)}</td>
                  <td>{share(b.positive_share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    />
  );
}

export function BusiestHoursSection({ slot, ctx }: { slot: Slot<BusiestHoursReport>; ctx: SectionContext }) {
  const r = slot.data;
  return (
    <ReportSection
      id="report-busiest"
      title={t('pages.reports.busiest')}
      note={r ? t('pages.reports.busiestNote', { zone: r.range.timezone }) : undefined}
      csv={r ? () => busiestHoursCsv(r) : null}
      csvName={r ? csvName('busiest-hours', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : r.total === 0 ? nothing('started', ctx) : null}
      toggle={false}
      chart={null}
      table={
        r && (
          <>
            <HeatMap grid={r.grid} max={r.max} timezone={r.range.timezone} />
            <HeatLegend max={r.max} />
          </>
        )
      }
    />
  );
}

export function AgentsSection({ slot, ctx }: { slot: Slot<AgentsReport>; ctx: SectionContext }) {
  const r = slot.data;
  return (
    <ReportSection
      id="report-agents"
      title={t('pages.reports.agents')}
      note={t('pages.reports.agentsNote')}
      csv={r ? () => agentsCsv(r) : null}
      csvName={r ? csvName('agents', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : t('common.loading')) : r.agents.length === 0 ? t('pages.reports.noAgent') : null}
      toggle={false}
      chart={null}
      table={
        r && (
          <table className="agents-report">
            <thead>
              <tr>
                <th scope="col">{t('pages.archive.agent')}</th>
                <th scope="col">{t('pages.reports.chatsHandled')}</th>
                <th scope="col">{t('pages.reports.firstMedian')}</th>
                <th scope="col">{t('pages.reports.p90Short')}</th>
                <th scope="col">{t('pages.status.online')}</th>
                <th scope="col">{t('pages.status.away')}</th>
                <th scope="col">{t('pages.reports.concurrency')}</th>
                <th scope="col">{t('pages.reports.positive')}</th>
                <th scope="col">{t('pages.reports.negative')}</th>
                <th scope="col">{t('pages.reports.positiveShare')}</th>
              </tr>
            </thead>
            <tbody>
              {r.agents.map((a) => (
                <tr key={a.agent_id}>
                  <th scope="row">{a.name}</th>
                  <td>{count(a.chats_handled)}</td>
                  <td>{duration(a.first_response.median_s)}</td>
                  <td>{duration(a.first_response.p90_s)}</td>
                  <td>{duration(a.online_s)}</td>
                  <td>{duration(a.away_s)}</td>
                  <td>{a.average_concurrency === null ? '–' : formatNumber(a.average_concurrency, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}</td>
                  <td>{count(a.positive)}</td>
                  <td>{count(a.negative)}</td>
                  <td>{share(a.positive_share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    />
  );
}
