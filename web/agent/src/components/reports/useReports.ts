/**
 * Loads every report of the page for one query, in parallel (and, to
 * compare, the charted reports of the previous period too). Each report
 * keeps its own error, so one failing report does not blank the others;
 * answers to an older query are dropped; the figures on screen stay while
 * new ones load.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText, type ReportQuery } from '../../api';
import {
  addDays,
  daysBetween,
  type AgentsReport,
  type BusiestHoursReport,
  type ChatsReport,
  type RatingsReport,
  type ResponseTimesReport,
} from '../../reports/model';

export interface Slot<T> {
  data: T | null;
  error: string | null;
}

export interface Reports {
  chats: Slot<ChatsReport>;
  responseTimes: Slot<ResponseTimesReport>;
  ratings: Slot<RatingsReport>;
  agents: Slot<AgentsReport>;
  busiest: Slot<BusiestHoursReport>;
  /** The previous period's series (null when not comparing). */
  previous: { chats: ChatsReport | null; responseTimes: ResponseTimesReport | null; ratings: RatingsReport | null };
}

const empty = <T>(): Slot<T> => ({ data: null, error: null });
const EMPTY: Reports = {
  chats: empty(),
  responseTimes: empty(),
  ratings: empty(),
  agents: empty(),
  busiest: empty(),
  previous: { chats: null, responseTimes: null, ratings: null },
};

async function slot<T>(p: Promise<T>): Promise<Slot<T>> {
  try {
    return { data: await p, error: null };
  } catch (err) {
    return { data: null, error: errorText(err) };
  }
}

/** The period of the same length just before the query's (as the API's previous_from / previous_to). */
export function previousQuery(q: ReportQuery): ReportQuery {
  const days = daysBetween(q.from, q.to);
  return { ...q, from: addDays(q.from, -days), to: addDays(q.from, -1) };
}

export function useReports(query: ReportQuery | null, compare: boolean): { reports: Reports; loading: boolean; reload: () => void } {
  const [reports, setReports] = useState<Reports>(EMPTY);
  const [loading, setLoading] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const key = query ? JSON.stringify(query) : null;

  useEffect(() => {
    if (!key) return;
    const q = JSON.parse(key) as ReportQuery;
    const mine = ++latest.current;
    setLoading(true);
    const prev = previousQuery(q);
    const optional = <T>(p: () => Promise<T>) => (compare ? p().catch(() => null) : Promise.resolve(null));
    void Promise.all([
      slot(api.report<ChatsReport>('chats', q)),
      slot(api.report<ResponseTimesReport>('response-times', q)),
      slot(api.report<RatingsReport>('ratings', q)),
      slot(api.report<AgentsReport>('agents', q)),
      slot(api.report<BusiestHoursReport>('busiest-hours', q)),
      optional(() => api.report<ChatsReport>('chats', prev)),
      optional(() => api.report<ResponseTimesReport>('response-times', prev)),
      optional(() => api.report<RatingsReport>('ratings', prev)),
    ]).then(([chats, responseTimes, ratings, agents, busiest, pChats, pResponse, pRatings]) => {
      if (mine !== latest.current) return;
      setReports({ chats, responseTimes, ratings, agents, busiest, previous: { chats: pChats, responseTimes: pResponse, ratings: pRatings } });
      setLoading(false);
    });
  }, [key, compare, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { reports, loading, reload };
}
