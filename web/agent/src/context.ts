/**
 * What the screens of the signed-in app can reach, one context per purpose
 * (LiveProvider provides all four): the session (the agent signed in), the
 * inbox and its stream (the chats, the live lists, the badges), the agents of
 * the account, and the notices (announcements for screen readers, toasts).
 * A screen reads only the ones it needs, and re-renders only when they change.
 */
import { createContext, useContext, useEffect, useRef, type Dispatch } from 'react';
import type { AgentDto } from '../../../protocol/agent';
import type { BadgeKind, LiveItem, LiveList } from './frames';
import type { InboxAction, InboxState } from './inbox';
import type { StreamState } from './stream';

export interface SessionValue {
  me: AgentDto;
  setMe: (agent: AgentDto) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  /** Safe URL of the account when known (admins read settings); null otherwise. */
  safeUrl: string | null;
  setSafeUrl: (url: string | null) => void;
}

/** The items of one live list, as its subscribers get them. */
export type LiveItemOf<K extends LiveList> = Extract<LiveItem, { list: K }>['item'];

export interface InboxValue {
  inbox: InboxState;
  dispatch: Dispatch<InboxAction>;
  /** True once the first lists arrived after the stream went live. */
  loaded: boolean;
  stream: StreamState;
  /** The conversation on screen, so its messages do not count as unread. */
  setOpenChat: (id: number | null) => void;
  /** Counts the stream's resets (an expired cursor): screens holding data of their own load it again when it changes. */
  resyncs: number;
  /** Items that arrived live and were not looked at yet, for the nav badges. */
  badges: Record<BadgeKind, number>;
  clearBadge: (which: BadgeKind) => void;
  /** Follows the items of a live list (calls, offline messages) as frames bring them; returns the unsubscribe. */
  subscribeLive: <K extends LiveList>(list: K, fn: (item: LiveItemOf<K>) => void) => () => void;
}

export interface AgentsValue {
  agents: Record<number, AgentDto>;
  reloadAgents: () => void;
}

export interface NoticesValue {
  /** Polite announcement for screen readers (new chats, errors of background work). */
  announce: (text: string) => void;
  /** A visible notice that stays a few seconds (role=alert): failures of an action whose button may vanish. */
  toast: (text: string) => void;
}

export const SessionCtx = createContext<SessionValue | null>(null);
export const InboxCtx = createContext<InboxValue | null>(null);
export const AgentsCtx = createContext<AgentsValue | null>(null);
export const NoticesCtx = createContext<NoticesValue | null>(null);

function need<T>(value: T | null, hook: string): T {
  if (!value) throw new Error(`${hook}() outside <LiveProvider>`);
  return value;
}

export const useSession = (): SessionValue => need(useContext(SessionCtx), 'useSession');
export const useInbox = (): InboxValue => need(useContext(InboxCtx), 'useInbox');
export const useAgents = (): AgentsValue => need(useContext(AgentsCtx), 'useAgents');
export const useNotices = (): NoticesValue => need(useContext(NoticesCtx), 'useNotices');

/** Calls `reload` when the stream resets after the screen mounted: frames its data relied on are gone. */
export function useOnResync(reload: () => void): void {
  const { resyncs } = useInbox();
  const seen = useRef(resyncs);
  useEffect(() => {
    if (resyncs === seen.current) return;
    seen.current = resyncs;
    reload();
  }, [resyncs, reload]);
}
