/**
 * What every screen of the signed-in app can reach: the agent, the inbox
 * state and its dispatcher, the agents of the account, the stream's state,
 * and a way to listen to raw stream frames (offline messages, calls).
 */
import { createContext, useContext, useEffect, useRef, type Dispatch } from 'react';
import type { InboxAction, InboxState } from './inbox';
import type { StreamState } from './stream';
import type { Agent, StreamFrame } from './types';

export interface AppContextValue {
  me: Agent;
  setMe: (agent: Agent) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  agents: Record<number, Agent>;
  reloadAgents: () => void;
  inbox: InboxState;
  dispatch: Dispatch<InboxAction>;
  /** True once the first lists arrived after the stream went live. */
  loaded: boolean;
  stream: StreamState;
  /** Safe URL of the account when known (admins read settings); null otherwise. */
  safeUrl: string | null;
  setSafeUrl: (url: string | null) => void;
  /** The conversation on screen, so its messages do not count as unread. */
  setOpenChat: (id: number | null) => void;
  /** Polite announcement for screen readers (new chats, errors of background work). */
  announce: (text: string) => void;
  /** A visible notice that stays a few seconds (role=alert): failures of an action whose button may vanish. */
  toast: (text: string) => void;
  onFrame: (fn: (frame: StreamFrame) => void) => () => void;
  /** Counts the stream's resets (an expired cursor): screens holding data of their own load it again when it changes. */
  resyncs: number;
  /** Items that arrived live and were not looked at yet, for the nav badges. */
  badges: { offline: number; calls: number };
  clearBadge: (which: 'offline' | 'calls') => void;
}

export const AppCtx = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppCtx);
  if (!value) throw new Error('useApp() outside <LiveProvider>');
  return value;
}

/** Calls `reload` when the stream resets after the screen mounted: frames its data relied on are gone. */
export function useOnResync(reload: () => void): void {
  const { resyncs } = useApp();
  const seen = useRef(resyncs);
  useEffect(() => {
    if (resyncs === seen.current) return;
    seen.current = resyncs;
    reload();
  }, [resyncs, reload]);
}
