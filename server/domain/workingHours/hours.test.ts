import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/AppError.js';
import { hoursState, isOpenAt, previewDays, type WorkingHours } from './hours.js';
import { cleanWorkingHours } from './hoursInput.js';

const t = (iso: string): number => Date.parse(iso);
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const office = (zone: string, exceptions: WorkingHours['exceptions'] = []): WorkingHours => {
  const day: [string, string][] = [['09:00', '17:00']];
  return { timezone: zone, weekly: { mon: day, tue: day, wed: day, thu: day, fri: day }, exceptions };
};

describe('working hours: open now and the next change', () => {
  it('is always open without hours', () => {
    expect(hoursState(null, t('2026-01-03T03:00:00Z'))).toEqual({ open: true, changes_at: null });
  });

  it('closes at the end of a range and opens at the next start, in the zone', () => {
    const h = office('Europe/Berlin'); // 2026-01-05 is a Monday; Berlin is UTC+1 in winter
    expect(hoursState(h, t('2026-01-05T07:59:00Z'))).toEqual({ open: false, changes_at: t('2026-01-05T08:00:00Z') });
    const open = hoursState(h, t('2026-01-05T08:00:00Z'));
    expect(open.open).toBe(true);
    expect(iso(open.changes_at)).toBe('2026-01-05T16:00:00.000Z');
  });

  it('crosses the spring daylight-saving change over a weekend (Berlin, 29 March 2026)', () => {
    const h = office('Europe/Berlin');
    // Friday 17:30 CET → closed until Monday 09:00 CEST, which is 07:00 UTC (not 08:00).
    const s = hoursState(h, t('2026-03-27T16:30:00Z'));
    expect(s.open).toBe(false);
    expect(iso(s.changes_at)).toBe('2026-03-30T07:00:00.000Z');
    expect(isOpenAt(h, t('2026-03-30T06:59:00Z'))).toBe(false);
    expect(isOpenAt(h, t('2026-03-30T07:00:00Z'))).toBe(true);
  });

  it('crosses the autumn daylight-saving change (New York, 1 November 2026)', () => {
    const h = office('America/New_York');
    // Friday 17:30 EDT (21:30 UTC) → Monday 09:00 EST = 14:00 UTC.
    const s = hoursState(h, t('2026-10-30T21:30:00Z'));
    expect(iso(s.changes_at)).toBe('2026-11-02T14:00:00.000Z');
  });

  it('finds an opening time that falls in the hour skipped by daylight saving', () => {
    // Sunday 29 March 2026 in Berlin: 02:00 CET jumps to 03:00 CEST; 02:30 never happens, so it opens at 03:00 CEST (01:00 UTC).
    const h: WorkingHours = { timezone: 'Europe/Berlin', weekly: { sun: [['02:30', '04:00']] }, exceptions: [] };
    const s = hoursState(h, t('2026-03-28T12:00:00Z'));
    expect(iso(s.changes_at)).toBe('2026-03-29T01:00:00.000Z');
    expect(iso(hoursState(h, t('2026-03-29T01:00:00Z')).changes_at)).toBe('2026-03-29T02:00:00.000Z');
  });

  it('a closed exception date (holiday) keeps it closed, and a shortened one closes early', () => {
    const h = office('Europe/London', [
      { date: '2026-12-24', ranges: [['09:00', '12:00']], note: 'Christmas Eve' },
      { date: '2026-12-25', ranges: [], note: 'Christmas' },
    ]);
    const eve = hoursState(h, t('2026-12-24T10:00:00Z'));
    expect(eve).toEqual({ open: true, changes_at: t('2026-12-24T12:00:00Z') });
    // Closed from Thursday noon through the holiday and the weekend: opens on Monday 28th.
    expect(iso(hoursState(h, t('2026-12-24T12:00:00Z')).changes_at)).toBe('2026-12-28T09:00:00.000Z');
    expect(isOpenAt(h, t('2026-12-25T10:00:00Z'))).toBe(false);
  });

  it('an exception may open a day that is closed every week', () => {
    const h = office('UTC', [{ date: '2026-12-27', ranges: [['10:00', '14:00']], note: null }]); // a Sunday
    expect(iso(hoursState(h, t('2026-12-26T12:00:00Z')).changes_at)).toBe('2026-12-27T10:00:00.000Z');
  });

  it('adjacent ranges and a day ending at 24:00 next to one starting at 00:00 are one open stretch', () => {
    const h: WorkingHours = {
      timezone: 'UTC',
      weekly: {
        mon: [
          ['08:00', '12:00'],
          ['12:00', '24:00'],
        ],
        tue: [['00:00', '02:00']],
      },
      exceptions: [],
    };
    expect(iso(hoursState(h, t('2026-01-05T09:00:00Z')).changes_at)).toBe('2026-01-06T02:00:00.000Z');
  });

  it('says null when nothing changes within the horizon', () => {
    expect(hoursState({ timezone: 'UTC', weekly: {}, exceptions: [] }, t('2026-01-05T09:00:00Z'))).toEqual({ open: false, changes_at: null });
  });

  it('previews the next seven local days with exceptions marked', () => {
    const h = office('Pacific/Auckland', [{ date: '2026-12-25', ranges: [], note: 'Christmas' }]);
    // 2026-12-23T12:00Z is already Thursday 24 December in Auckland (UTC+13).
    const days = previewDays(h, t('2026-12-23T12:00:00Z'));
    expect(
      days.map((d) => `${d.weekday} ${d.date} ${d.ranges.map((r) => r.join('-')).join(',') || 'closed'}${d.exception === null ? '' : ` (${d.exception})`}`),
    ).toEqual([
      'thu 2026-12-24 09:00-17:00',
      'fri 2026-12-25 closed (Christmas)',
      'sat 2026-12-26 closed',
      'sun 2026-12-27 closed',
      'mon 2026-12-28 09:00-17:00',
      'tue 2026-12-29 09:00-17:00',
      'wed 2026-12-30 09:00-17:00',
    ]);
  });
});

describe('working hours: input rules', () => {
  const refused = (input: Parameters<typeof cleanWorkingHours>[0]): string => {
    try {
      cleanWorkingHours(input);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return (err as AppError).message;
    }
    throw new Error('accepted');
  };

  it('keeps good hours, canonical zone, sorted ranges and dates', () => {
    const h = cleanWorkingHours({
      timezone: 'europe/berlin',
      weekly: {
        mon: [
          ['14:00', '18:00'],
          ['09:00', '12:00'],
        ],
      },
      exceptions: [
        { date: '2026-12-26', ranges: [] },
        { date: '2026-12-25', ranges: [], note: ' Christmas ' },
      ],
    });
    expect(h).toEqual({
      timezone: 'Europe/Berlin',
      weekly: {
        mon: [
          ['09:00', '12:00'],
          ['14:00', '18:00'],
        ],
      },
      exceptions: [
        { date: '2026-12-25', ranges: [], note: 'Christmas' },
        { date: '2026-12-26', ranges: [], note: null },
      ],
    });
  });

  it('refuses in words what is wrong', () => {
    expect(refused({ timezone: 'Mars/Base', weekly: {} })).toMatch(/not a time zone this server knows/);
    expect(refused({ timezone: 'UTC', weekly: { monday: [] } })).toMatch(/"monday" is not one of them/);
    expect(refused({ timezone: 'UTC', weekly: { mon: [['18:00', '09:00']] } })).toBe(
      'Monday: 18:00–09:00 ends before it starts; a range must end after it starts (use 24:00 for midnight).',
    );
    expect(refused({ timezone: 'UTC', weekly: { tue: [['9am', '5pm']] } })).toMatch(/^Tuesday: "9am–5pm" is not a range of times/);
    expect(
      refused({
        timezone: 'UTC',
        weekly: {
          wed: [
            ['09:00', '13:00'],
            ['12:00', '17:00'],
          ],
        },
      }),
    ).toMatch(/overlap/);
    expect(refused({ timezone: 'UTC', weekly: {}, exceptions: [{ date: '2026-02-30', ranges: [] }] })).toMatch(/"2026-02-30" is not a date/);
    expect(
      refused({
        timezone: 'UTC',
        weekly: {},
        exceptions: [
          { date: '2026-12-25', ranges: [] },
          { date: '2026-12-25', ranges: [] },
        ],
      }),
    ).toMatch(/listed twice/);
  });
});
