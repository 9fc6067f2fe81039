/**
 * The Reports page's pure parts: presets in the report's zone, range checks
 * with sentences saying what to do, durations, changes against the previous
 * period, heat-map shading, CSV quoting (and formula guarding at every cell start), and the
 * previous period the page asks for to compare.
 */
import { describe, expect, it } from 'vitest';
import { previousQuery } from '../components/reports/useReports';
import { bucketTick, bucketTitle, change, daysBetween, duration, heatLevel, presetRange, rangeProblem, todayIn, toCsv } from './model';

describe('reports model', () => {
  it('computes today in the report zone and the presets from it', () => {
    const at = Date.parse('2026-11-01T03:30:00Z');
    expect(todayIn('UTC', at)).toBe('2026-11-01');
    expect(todayIn('America/New_York', at)).toBe('2026-10-31');
    expect(todayIn('Not/A_Zone', at)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(presetRange('today', '2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(presetRange('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(presetRange('7d', '2026-03-01')).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(presetRange('30d', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(daysBetween(...(Object.values(presetRange('365d', '2026-03-01')) as [string, string]))).toBe(365);
  });

  it('says what is wrong with a custom range', () => {
    expect(rangeProblem('2026-01-01', '2026-01-31', 'hour')).toBeNull();
    expect(rangeProblem('', '2026-01-31', 'auto')).toBe('Pick both a first and a last day.');
    expect(rangeProblem('2026-02-01', '2026-01-31', 'auto')).toBe('The last day must be the first day or later.');
    expect(rangeProblem('2026-01-01', '2026-02-01', 'hour')).toMatch(/^Hourly buckets cover at most 31 days/);
    expect(rangeProblem('2024-01-01', '2026-01-01', 'day')).toMatch(/^A report covers at most 400 days/);
  });

  it('asks for the period of the same length just before', () => {
    expect(previousQuery({ from: '2026-03-01', to: '2026-03-07', agent_id: 3 })).toEqual({ from: '2026-02-22', to: '2026-02-28', agent_id: 3 });
    expect(previousQuery({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });

  it('writes buckets, durations and changes for people', () => {
    expect(bucketTitle('2026-11-03')).toBe('Tue 3 Nov 2026');
    expect(bucketTitle('2026-11-01T01:00')).toBe('Sun 1 Nov 01:00');
    expect(bucketTick('2026-11-01T00:00')).toBe('1 Nov');
    expect(bucketTick('2026-11-01T14:00')).toBe('14:00');
    expect([duration(null), duration(42.4), duration(200), duration(720), duration(7500), duration(200_000)]).toEqual([
      '–',
      '42 s',
      '3 min 20 s',
      '12 min',
      '2 h 5 min',
      '2 d 8 h',
    ]);
    expect(change(12, 10, true)).toEqual({ text: '+20 %', direction: 'up', better: true });
    expect(change(30, 60, false)).toEqual({ text: '−50 %', direction: 'down', better: true });
    expect(change(5, 0, null)).toEqual({ text: 'new (none before)', direction: 'up', better: null });
    expect(change(3, 3, true).text).toBe('no change');
    expect(change(null, 3, true).direction).toBe('none');
  });

  it('shades the heat map from none to the busiest hour', () => {
    expect([0, 1, 2, 5, 9, 10].map((v) => heatLevel(v, 10))).toEqual([0, 1, 1, 3, 5, 5]);
    expect(heatLevel(3, 0)).toBe(0);
  });

  it('quotes CSV fields and keeps spreadsheets from running a name as a formula', () => {
    expect(
      toCsv([
        ['agent', 'chats'],
        ['Ann, "the boss"', 3],
        ['=HYPERLINK("x")', null],
        ['-2', 1.5],
      ]),
    ).toBe('agent,chats\r\n"Ann, ""the boss""",3\r\n"\'=HYPERLINK(""x"")",\r\n\'-2,1.5\r\n');
  });

  it('neutralises a formula at every cell start a spreadsheet may split on, not only the first', () => {
    // Opened with `;` (a European locale) or tab as the separator, each part is a cell of its own.
    expect(toCsv([['a;=HYPERLINK("http://x","y")']])).toBe('"a;\'=HYPERLINK(""http://x"",""y"")"\r\n');
    expect(toCsv([['a\t+1', 'b|@SUM(A1)', 'c\n-1', 'd,=1', '"=1"']])).toBe('"a\t\'+1","b|\'@SUM(A1)","c\n\'-1","d,\'=1","""\'=1"""\r\n');
    // A tab or CR starting a cell is itself neutralised, and the cell after it too.
    expect(toCsv([['\t=1']])).toBe('"\'\t\'=1"\r\n');
    // `;` alone is quoted, so a `;`-splitting spreadsheet keeps the field whole.
    expect(toCsv([['Sales; Europe']])).toBe('"Sales; Europe"\r\n');
    // A separator in the middle of an ordinary name changes nothing but the quoting.
    expect(toCsv([['x-y', 'a - b']])).toBe('x-y,a - b\r\n');
  });
});
