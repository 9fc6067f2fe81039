/**
 * A countdown for the offer marks: the milliseconds left until `until`
 * (epoch ms), read at each render, with a re-render once a second until it
 * reaches 0; then it rests. null: nothing to count (0).
 */
import { useEffect, useState } from 'react';

const TICK_MS = 1000;

export function useTimeLeft(until: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until === null || until <= Date.now()) return;
    const timer = window.setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= until) window.clearInterval(timer);
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, until - Date.now());
}

/**
 * One re-render at `at` (epoch ms), for a view that changes when a moment
 * passes (an offer running out) but shows no countdown. null: none. The
 * caller computes `at` from the time of its render and passes only a moment
 * still to come (ChatList: nextExpiry); a moment already past would re-render
 * again and again until the caller moves it.
 */
export function useRerenderAt(at: number | null): void {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (at === null) return;
    // A timer may fire a little early: the render it causes then asks again.
    const timer = window.setTimeout(() => setTick((n) => n + 1), Math.max(0, at - Date.now()) + 1);
    return () => window.clearTimeout(timer);
  }, [at, tick]);
}
