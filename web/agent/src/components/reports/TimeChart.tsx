/**
 * A chart over the report's buckets, drawn by uPlot (canvas; only in the
 * Reports chunk). x is the bucket's index, ticked with its local label; the
 * legend under the chart shows every series' value at the pointer (numbers
 * on hover). Lines or bars; a series may be dashed (the previous period).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { bucketTick, bucketTitle, DURATION_STEPS, durationTick } from '../../reports/model';
import { t } from '../../i18n';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  dashed?: boolean;
  /** A light area under the line (the main series, so lines drawn over it do not hide it). */
  area?: boolean;
  bars?: -1 | 0 | 1;
  format: (v: number) => string;
}

interface Props {
  title: string;
  labels: string[];
  series: ChartSeries[];
  /** 'count': whole numbers; 'duration': seconds with minute and hour steps; 'share': 0…1. */
  unit: 'count' | 'duration' | 'share';
  yLabel: string;
  height?: number;
}

const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000, 250_000, 500_000, 1_000_000];
const INDEX_STEPS = [1, 2, 3, 4, 6, 7, 12, 14, 24, 28, 30, 48, 60, 90, 120, 180, 365];
const SHARE_STEPS = [0.05, 0.1, 0.2, 0.25, 0.5];

function yAxis(unit: Props['unit'], label: string): uPlot.Axis {
  const base: uPlot.Axis = { label, labelSize: 24, size: 64, gap: 6, stroke: '#5d6677', grid: { stroke: '#e8ebf0', width: 1 }, ticks: { show: false } };
  if (unit === 'duration') return { ...base, incrs: DURATION_STEPS, values: (_u, splits) => splits.map((s) => durationTick(s)) };
  if (unit === 'share') return { ...base, incrs: SHARE_STEPS, values: (_u, splits) => splits.map((s) => `${Math.round(s * 100)} %`) };
  return { ...base, incrs: COUNT_STEPS, values: (_u, splits) => splits.map((s) => s.toLocaleString('en-US')) };
}

function options(props: Required<Props>, width: number): uPlot.Options {
  const { labels, series, unit, yLabel, height } = props;
  const hasBars = series.some((s) => s.bars !== undefined);
  return {
    width,
    height,
    scales: {
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: {
        range: (_u, _min, max) => {
          const top = unit === 'share' ? 1 : Math.max(max, unit === 'duration' ? 60 : 4);
          return [0, unit === 'share' ? 1 : uPlot.rangeNum(0, top, 0.1, true)[1]];
        },
      },
    },
    axes: [
      {
        stroke: '#5d6677',
        grid: { show: false },
        ticks: { size: 4, stroke: '#c9ced8' },
        space: labels[0] && labels[0].length > 10 ? 56 : 64,
        incrs: INDEX_STEPS,
        values: (_u, splits) => splits.map((i) => (Number.isInteger(i) && labels[i] ? bucketTick(labels[i]) : '')),
      },
      yAxis(unit, yLabel),
    ],
    cursor: { points: { size: 7 }, drag: { x: false, y: false } },
    legend: { live: true },
    series: [
      {
        label: labels[0] && labels[0].length > 10 ? t('pages.reports.hour') : t('pages.reports.day'),
        value: (_u, i) => (i === null || !labels[i] ? t('pages.reports.pointAt') : bucketTitle(labels[i])),
      },
      ...series.map((s): uPlot.Series => ({
        label: s.label,
        stroke: s.color,
        width: s.bars === undefined ? 2 : 0,
        fill: s.bars !== undefined ? s.color : s.area ? `${s.color}1f` : undefined,
        dash: s.dashed ? [6, 4] : undefined,
        // Durations have gaps (buckets without chats): their points always show, so a lone value is seen.
        points: { show: s.bars === undefined && (labels.length <= 62 || unit === 'duration'), size: labels.length > 62 ? 3 : 5, fill: '#fff' },
        paths: s.bars === undefined ? undefined : uPlot.paths.bars?.({ size: [hasBars && series.length > 1 ? 0.4 : 0.7, 28], align: s.bars }),
        value: (_u, v) => (v === null || v === undefined ? '–' : s.format(v)),
        spanGaps: false,
      })),
    ],
  };
}

/** Pass `labels` and `series` memoized: the chart is rebuilt when they change. */
export function TimeChart({ title, labels, series, unit, yLabel, height = 260 }: Props) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const data: uPlot.AlignedData = [labels.map((_, i) => i), ...series.map((s) => s.values)];
    const width = () => Math.max(el.clientWidth, 280);
    const chart = new uPlot(options({ title, labels, series, unit, yLabel, height }, width()), data, el);
    const resize = new ResizeObserver(() => {
      if (chart.width !== width()) chart.setSize({ width: width(), height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [title, labels, series, unit, yLabel, height]);
  return <div ref={holder} className="chart" role="img" aria-label={t('pages.reports.chartHint', { title })} />;
}
