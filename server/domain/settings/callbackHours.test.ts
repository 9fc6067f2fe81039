import { describe, expect, it } from 'vitest';
import { isCallbackOpen, localTime, minutesOf } from './callbackHours.js';

const at = (iso: string): Date => new Date(iso);

describe('isCallbackOpen', () => {
  it('is always open when hours is null', () => {
    expect(isCallbackOpen({ timezone: 'UTC', hours: null }, at('2024-01-06T03:00:00Z'))).toBe(true);
  });

  it('includes the start, excludes the end, in the given zone', () => {
    // 2024-01-01 is a Monday; Berlin is UTC+1 in winter.
    const cb = { timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] as [string, string][] } };
    expect(isCallbackOpen(cb, at('2024-01-01T07:59:59Z'))).toBe(false);
    expect(isCallbackOpen(cb, at('2024-01-01T08:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-01T15:59:59Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-01T16:00:00Z'))).toBe(false);
  });

  it('follows daylight saving time', () => {
    // 2024-07-01 is a Monday; Berlin is UTC+2 in summer.
    const cb = { timezone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] as [string, string][] } };
    expect(isCallbackOpen(cb, at('2024-07-01T07:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-07-01T06:59:00Z'))).toBe(false);
  });

  it('uses the local day, not the UTC day', () => {
    // Tuesday 02:00 UTC is Monday 21:00 in New York (EST, UTC-5).
    const cb = { timezone: 'America/New_York', hours: { mon: [['20:00', '24:00']] as [string, string][] } };
    expect(isCallbackOpen(cb, at('2024-01-02T02:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-02T04:59:59Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-02T05:00:00Z'))).toBe(false);
  });

  it('treats a missing or empty day as closed and checks every range of a day', () => {
    const cb = {
      timezone: 'UTC',
      hours: {
        mon: [
          ['08:00', '10:00'],
          ['14:00', '16:00'],
        ] as [string, string][],
        tue: [],
      },
    };
    expect(isCallbackOpen(cb, at('2024-01-01T09:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-01T12:00:00Z'))).toBe(false);
    expect(isCallbackOpen(cb, at('2024-01-01T15:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-02T09:00:00Z'))).toBe(false);
    expect(isCallbackOpen(cb, at('2024-01-03T09:00:00Z'))).toBe(false);
    expect(isCallbackOpen({ timezone: 'UTC', hours: {} }, at('2024-01-01T09:00:00Z'))).toBe(false);
  });

  it('opens at 00:00 and closes at 24:00', () => {
    const cb = { timezone: 'UTC', hours: { sun: [['00:00', '24:00']] as [string, string][] } };
    expect(isCallbackOpen(cb, at('2024-01-07T00:00:00Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-07T23:59:59Z'))).toBe(true);
    expect(isCallbackOpen(cb, at('2024-01-08T00:00:00Z'))).toBe(false);
  });

  it('reads an unknown zone as UTC rather than throwing', () => {
    const cb = { timezone: 'Not/AZone', hours: { mon: [['09:00', '10:00']] as [string, string][] } };
    expect(isCallbackOpen(cb, at('2024-01-01T09:30:00Z'))).toBe(true);
  });
});

describe('helpers', () => {
  it('minutesOf accepts 00:00 … 24:00 only', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('17:30')).toBe(1050);
    expect(minutesOf('24:00')).toBe(1440);
    for (const bad of ['24:01', '25:00', '9:00', '09:60', '0900', '']) expect(minutesOf(bad), bad).toBeNull();
  });

  it('localTime gives the local weekday and minute', () => {
    expect(localTime(at('2024-01-01T23:30:00Z'), 'Asia/Tokyo')).toEqual({ day: 'tue', minutes: 8 * 60 + 30 });
  });
});
