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
import { HeatLegend, HeatMap } from './HeatMap';
import { ReportSection } from './ReportSection';
import { TimeChart, type ChartSeries } from './TimeChart';
import type { Channel } from '../../types';
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

const SPLIT_NOTES = {
  none: 'A chat counts in the bucket in which it started, even if it was accepted or missed later.',
  agent:
    'Only the chats this agent accepted. Missed chats are counted for the team, not per agent, and offline messages and callback requests have no agent, so they are not counted here; clear the agent filter to see them.',
  own: 'Only the chats you accepted. Missed chats are counted for the team, not per agent, and offline messages and callback requests have no agent, so they are not counted here.',
  department: 'Offline messages and callback requests belong to no department, so they are left out under the department filter; clear it to see them.',
};

function nothing(what: string, ctx: SectionContext): string {
  return `${what} in this period${ctx.filtered ? ' with these filters' : ''}. Pick a longer period${ctx.filtered ? ' or clear the filters' : ''}.`;
}

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
      {props.compare && props.previous === null && <span className="kpi-change small muted">none in the previous period</span>}
      {props.compare && props.previous !== null && (
        <span className="kpi-change small">
          <Delta current={props.current} previous={props.previous} higherIsBetter={props.higherIsBetter} />
          <span className="muted"> vs {props.previousText}</span>
        </span>
      )}
    </li>
  );
}

function NotSplit({ label, why }: { label: string; why: string }) {
  return (
    <li className="kpi">
      <span className="kpi-label">{label}</span>
      <strong className="kpi-value">n/a</strong>
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
    <ul className="kpis" aria-label="Totals of the period">
      {chats && k('Chats started', chats.totals.started, chats.previous.started, n, null)}
      {chats && k('Accepted', chats.totals.accepted, chats.previous.accepted, n, true)}
      {chats &&
        (ctx.split === 'agent' || ctx.split === 'own' ? (
          <NotSplit label="Missed" why="missed chats are counted for the team, not per agent" />
        ) : (
          k('Missed', chats.totals.missed, chats.previous.missed, n, false)
        ))}
      {times && k('Median first response', times.totals.first_response.median_s, times.previous.first_response.median_s, duration, false)}
      {times && k('Median chat duration', times.totals.duration.median_s, times.previous.duration.median_s, duration, null)}
      {ratings && k('Positive ratings', ratings.totals.positive_share, ratings.previous.positive_share, share, true)}
      {chats &&
        (ctx.splitByPerson ? (
          <NotSplit label="Offline messages" why="not split by department or agent" />
        ) : (
          k('Offline messages', chats.totals.offline_messages, chats.previous.offline_messages, n, null)
        ))}
    </ul>
  );
}

export function ChatsSection({ slot, previous, ctx }: { slot: Slot<ChatsReport>; previous: ChatsReport | null; ctx: SectionContext }) {
  const r = slot.data;
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const series = useMemo((): ChartSeries[] => {
    if (!r) return [];
    const s: ChartSeries[] = [
      { label: 'Started', values: r.series.map((b) => b.started), color: COLORS.started, area: true, format: count },
      { label: 'Accepted', values: r.series.map((b) => b.accepted), color: COLORS.accepted, format: count },
    ];
    if (ctx.split !== 'agent' && ctx.split !== 'own') s.push({ label: 'Missed', values: r.series.map((b) => b.missed), color: COLORS.missed, format: count });
    if (!ctx.splitByPerson) {
      s.push({ label: 'Offline messages', values: r.series.map((b) => b.offline_messages), color: COLORS.offline, format: count });
      s.push({ label: 'Callbacks', values: r.series.map((b) => b.callbacks), color: COLORS.callbacks, format: count });
    }
    if (ctx.compare && previous)
      s.push({
        label: 'Started, previous period',
        values: aligned(r.series, previous.series, (b) => b.started),
        color: COLORS.previous,
        dashed: true,
        format: count,
      });
    return s;
  }, [r, previous, ctx.splitByPerson, ctx.split, ctx.compare]);
  const t = r?.totals;
  const none = t ? t.started + (ctx.splitByPerson ? 0 : t.offline_messages + t.callbacks) === 0 : false;
  return (
    <ReportSection
      id="report-chats"
      title="Chats"
      note={SPLIT_NOTES[ctx.split ?? 'none']}
      csv={r ? () => chatsCsv(r) : null}
      csvName={r ? csvName('chats', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : none ? nothing('No chats started', ctx) : null}
      chart={<TimeChart title="Chats" labels={labels} series={series} unit="count" yLabel="Chats" />}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">{r.range.interval === 'hour' ? 'Hour' : 'Day'}</th>
                <th scope="col">Started</th>
                <th scope="col">Accepted</th>
                <th scope="col">Missed</th>
                {!ctx.splitByPerson && <th scope="col">Offline messages</th>}
                {!ctx.splitByPerson && <th scope="col">Callbacks</th>}
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
                [['Total', r.totals], ...(ctx.compare ? [[`Previous period (${r.range.previous_from} – ${r.range.previous_to})`, r.previous]] : [])] as [
                  string,
                  ChatCounts,
                ][]
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
export function ChannelsSection({ slot, channels, ctx }: { slot: Slot<ChatsReport>; channels: Channel[] | null; ctx: SectionContext }) {
  const r = slot.data;
  const nameOf = (id: number) => channels?.find((c) => c.id === id)?.name ?? `Channel ${id} (deleted)`;
  const rows = r ? r.by_channel.filter((c) => c.started + c.offline_messages + c.callbacks > 0) : [];
  return (
    <ReportSection
      id="report-channels"
      title="Chats by channel"
      note="The period's chats, offline messages and callback requests per channel."
      csv={r ? () => channelsCsv(r, nameOf) : null}
      csvName={r ? csvName('channels', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : rows.length === 0 ? nothing('No chats started', ctx) : null}
      toggle={false}
      chart={null}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Started</th>
                <th scope="col">Accepted</th>
                <th scope="col">Missed</th>
                {!ctx.splitByPerson && <th scope="col">Offline messages</th>}
                {!ctx.splitByPerson && <th scope="col">Callbacks</th>}
                <th scope="col">Share of chats</th>
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
    { label: 'Median', values: r.series.map((b) => b[which].median_s), color: colors[0], format: duration },
    { label: '90th percentile', values: r.series.map((b) => b[which].p90_s), color: colors[1], format: duration },
  ];
  if (compare && previous)
    s.push({
      label: 'Median, previous period',
      values: aligned(r.series, previous.series, (b) => b[which].median_s),
      color: COLORS.previous,
      dashed: true,
      format: duration,
    });
  return s;
}

const figureCells = (f: TimeFigures) => [count(f.count), duration(f.median_s), duration(f.p90_s), duration(f.average_s)];

export function ResponseTimesSection({ slot, previous, ctx }: { slot: Slot<ResponseTimesReport>; previous: ResponseTimesReport | null; ctx: SectionContext }) {
  const r = slot.data;
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const first = useMemo(
    () => (r ? timeSeries(r, previous, 'first_response', ctx.compare, [COLORS.started, COLORS.callbacks]) : []),
    [r, previous, ctx.compare],
  );
  const length = useMemo(() => (r ? timeSeries(r, previous, 'duration', ctx.compare, [COLORS.accepted, COLORS.offline]) : []), [r, previous, ctx.compare]);
  const none = r ? r.totals.first_response.count + r.totals.duration.count === 0 : false;
  return (
    <ReportSection
      id="report-times"
      title="Response times"
      note="First response: from the visitor's first message to the first agent reply. Duration: from start to finish of finished chats."
      csv={r ? () => responseTimesCsv(r) : null}
      csvName={r ? csvName('response-times', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : none ? nothing('No chat was answered or finished', ctx) : null}
      chart={
        <div className="chart-pair">
          <div>
            <h3>First response</h3>
            <TimeChart title="First response time" labels={labels} series={first} unit="duration" yLabel="Time to first reply" height={220} />
          </div>
          <div>
            <h3>Chat duration</h3>
            <TimeChart title="Chat duration" labels={labels} series={length} unit="duration" yLabel="Duration" height={220} />
          </div>
        </div>
      }
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col" rowSpan={2}>
                  {r.range.interval === 'hour' ? 'Hour' : 'Day'}
                </th>
                <th scope="colgroup" colSpan={4}>
                  First response
                </th>
                <th scope="colgroup" colSpan={4}>
                  Duration
                </th>
              </tr>
              <tr>
                {['Chats', 'Median', '90th pct.', 'Average', 'Chats', 'Median', '90th pct.', 'Average'].map((h, i) => (
                  <th scope="col" key={i}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[
                ...r.series.map((b) => [bucketTitle(b.label), b] as const),
                ['Total', r.totals] as const,
                ...(ctx.compare ? [['Previous period', r.previous] as const] : []),
              ].map(([label, f]) => (
                <tr key={label + ('start' in f ? f.start : '')}>
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
  const labels = useMemo(() => r?.series.map((b) => b.label) ?? [], [r]);
  const series = useMemo(
    (): ChartSeries[] =>
      r
        ? [
            { label: 'Positive', values: r.series.map((b) => b.positive), color: COLORS.accepted, bars: -1, format: count },
            { label: 'Negative', values: r.series.map((b) => b.negative), color: COLORS.missed, bars: 1, format: count },
          ]
        : [],
    [r],
  );
  const none = r ? r.totals.positive + r.totals.negative === 0 : false;
  return (
    <ReportSection
      id="report-ratings"
      title="Ratings"
      note={r && !none ? `${share(r.totals.positive_share)} positive of ${count(r.totals.positive + r.totals.negative)} rated chats.` : undefined}
      csv={r ? () => ratingsCsv(r) : null}
      csvName={r ? csvName('ratings', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : none ? nothing('No visitor rated a chat', ctx) : null}
      chart={<TimeChart title="Ratings" labels={labels} series={series} unit="count" yLabel="Rated chats" />}
      table={
        r && (
          <table>
            <thead>
              <tr>
                <th scope="col">{r.range.interval === 'hour' ? 'Hour' : 'Day'}</th>
                <th scope="col">Positive</th>
                <th scope="col">Negative</th>
                <th scope="col">Positive share</th>
              </tr>
            </thead>
            <tbody>
              {[...r.series.map((b) => [bucketTitle(b.label), b] as const), ['Total', r.totals] as const].map(([label, b]) => (
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
      title="Busiest hours"
      note={r ? `Chats started per weekday and hour, in ${r.range.timezone} time.` : undefined}
      csv={r ? () => busiestHoursCsv(r) : null}
      csvName={r ? csvName('busiest-hours', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : r.total === 0 ? nothing('No chats started', ctx) : null}
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
      title="Agents"
      note="Chats handled: chats the agent accepted (the last one after transfers). Online and Away: time in that status within the period."
      csv={r ? () => agentsCsv(r) : null}
      csvName={r ? csvName('agents', r.range) : ''}
      error={slot.error}
      onRetry={ctx.onRetry}
      empty={!r ? (slot.error ? null : 'Loading…') : r.agents.length === 0 ? 'No active agent matches these filters; clear the agent filter.' : null}
      toggle={false}
      chart={null}
      table={
        r && (
          <table className="agents-report">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Chats handled</th>
                <th scope="col">First response, median</th>
                <th scope="col">90th pct.</th>
                <th scope="col">Online</th>
                <th scope="col">Away</th>
                <th scope="col">Average concurrency</th>
                <th scope="col">Positive</th>
                <th scope="col">Negative</th>
                <th scope="col">Positive share</th>
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
                  <td>{a.average_concurrency === null ? '–' : a.average_concurrency.toFixed(1)}</td>
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
