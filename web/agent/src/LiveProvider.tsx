/**
 * Keeps the signed-in app live: opens the stream, loads the chat lists once it
 * is live (so nothing falls between the load and the first frame), applies
 * every frame to the inbox, raises the new-chat alerts and keeps the unread
 * count in the tab title.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { setTitleCount } from './alerts';
import { api, errorText } from './api';
import { AppCtx, type AppContextValue } from './context';
import { t } from './i18n';
import { applyFrame } from './frames';
import { attentionCount, emptyInbox, inboxReducer } from './inbox';
import { AgentStream, type StreamState } from './stream';
import type { Agent, StreamFrame } from './types';

/** Open chats loaded per list (the API's largest page); the lists render only the rows in view. */
const LIST_LIMIT = 1000;

interface Props {
  me: Agent;
  setMe: (agent: Agent) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  sessionLost: () => void;
  children: ReactNode;
}

export function LiveProvider({ me, setMe, signOut, sessionLost, children }: Props) {
  const [inbox, dispatch] = useReducer(inboxReducer, emptyInbox);
  const [loaded, setLoaded] = useState(false);
  const [stream, setStream] = useState<StreamState>('connecting');
  const [agents, setAgents] = useState<Record<number, Agent>>({ [me.id]: me });
  const [safeUrl, setSafeUrl] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [toastText, setToastText] = useState<string | null>(null);
  const [badges, setBadges] = useState({ offline: 0, calls: 0 });
  const [resyncs, setResyncs] = useState(0);
  const openChat = useRef<number | null>(null);
  const listeners = useRef(new Set<(frame: StreamFrame) => void>());
  const known = useRef<Record<number, true>>({});
  const meRef = useRef(me);
  meRef.current = me;

  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const toast = useCallback((text: string) => setToastText(text), []);
  useEffect(() => {
    if (!toastText) return;
    const timer = window.setTimeout(() => setToastText(null), 8000);
    return () => window.clearTimeout(timer);
  }, [toastText]);

  const reloadAgents = useCallback(() => {
    api.agents().then(
      (list) => setAgents(Object.fromEntries(list.map((a) => [a.id, a]))),
      () => {},
    );
  }, []);

  const loadLists = useCallback(async () => {
    const [pending, active] = await Promise.all([api.chats('pending', { limit: LIST_LIMIT }), api.chats('active', { limit: LIST_LIMIT })]);
    for (const c of [...pending, ...active]) known.current[c.id] = true;
    dispatch({ type: 'chats', chats: [...pending, ...active] });
    // The conversation on screen is read, whatever the rows (read a moment before) say.
    if (openChat.current !== null) dispatch({ type: 'read', chatId: openChat.current });
    setLoaded(true);
  }, []);

  // Unread state lives on the server (per agent), so a reload or another device shows the same counts.
  const markRead = useCallback((chatId: number, messageId?: number) => {
    api.read(chatId, messageId).catch(() => {});
  }, []);

  const onFrame = useCallback(
    (frame: StreamFrame) => {
      applyFrame(frame, {
        dispatch,
        known: known.current,
        meId: () => meRef.current.id,
        openChatId: () => openChat.current,
        announce,
        agentChanged: (agent) => {
          setAgents((all) => ({ ...all, [agent.id]: agent }));
          if (agent.id === meRef.current.id) setMe(agent);
        },
        bump: (which) => setBadges((b) => ({ ...b, [which]: b[which] + 1 })),
        seen: markRead,
        // Which chats this agent sees may have changed: the lists, and screens holding data of their own, load again.
        channelsChanged: () => {
          api.myChannels().then(
            (channels) => dispatch({ type: 'channels', visible: channels.map((c) => c.id) }),
            () => {},
          );
          loadLists().catch(() => {});
          setResyncs((n) => n + 1);
        },
      });
      for (const fn of listeners.current) fn(frame);
    },
    [announce, setMe, markRead, loadLists],
  );

  // The tab comes back to front: the conversation on screen is read.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible' && openChat.current !== null) {
        dispatch({ type: 'read', chatId: openChat.current });
        markRead(openChat.current);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markRead]);

  useEffect(() => {
    let alive = true;
    let retry: number | undefined;
    const load = () =>
      loadLists().catch((err: unknown) => {
        if (!alive) return;
        toast(t('workspace.live.listsFailed', { error: errorText(err) }));
        retry = window.setTimeout(load, 3000);
      });
    const s = new AgentStream({
      onFrame,
      onReady: (first) => {
        if (first) void load();
      },
      // Events we missed are gone: forget the lists (ready reloads them) and let screens refetch theirs.
      onReset: () => {
        dispatch({ type: 'stale', keep: openChat.current });
        setLoaded(false);
        setResyncs((n) => n + 1);
      },
      onState: setStream,
      onUnauthorized: sessionLost,
    });
    s.start();
    reloadAgents();
    if (meRef.current.role === 'admin')
      api.settings().then(
        (st) => setSafeUrl(st.safe_url),
        () => {},
      );
    return () => {
      alive = false;
      window.clearTimeout(retry);
      s.stop();
    };
  }, [onFrame, loadLists, reloadAgents, sessionLost, toast]);

  // Expire typing indicators the visitor never ended.
  useEffect(() => {
    const ids = Object.entries(inbox.typing);
    if (ids.length === 0) return;
    const next = Math.min(...ids.map(([, until]) => until));
    const timer = window.setTimeout(
      () => {
        for (const [id, until] of ids) if (until <= Date.now()) dispatch({ type: 'typing', chatId: Number(id), until: null });
      },
      Math.max(0, next - Date.now()) + 50,
    );
    return () => window.clearTimeout(timer);
  }, [inbox.typing]);

  const attention = attentionCount(inbox);
  useEffect(() => setTitleCount(attention), [attention]);
  useEffect(() => () => setTitleCount(0), []);

  const setOpenChat = useCallback(
    (id: number | null) => {
      openChat.current = id;
      if (id !== null) {
        dispatch({ type: 'read', chatId: id });
        if (document.visibilityState === 'visible') markRead(id);
      }
    },
    [markRead],
  );
  const subscribe = useCallback((fn: (frame: StreamFrame) => void) => {
    listeners.current.add(fn);
    return () => {
      listeners.current.delete(fn);
    };
  }, []);
  const clearBadge = useCallback((which: 'offline' | 'calls') => setBadges((b) => (b[which] === 0 ? b : { ...b, [which]: 0 })), []);

  const value = useMemo<AppContextValue>(
    () => ({
      me,
      setMe,
      signOut,
      agents,
      reloadAgents,
      inbox,
      dispatch,
      loaded,
      stream,
      safeUrl,
      setSafeUrl,
      setOpenChat,
      announce,
      toast,
      onFrame: subscribe,
      resyncs,
      badges,
      clearBadge,
    }),
    [me, setMe, signOut, agents, reloadAgents, inbox, loaded, stream, safeUrl, setOpenChat, announce, toast, subscribe, resyncs, badges, clearBadge],
  );

  return (
    <AppCtx.Provider value={value}>
      {children}
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
      <div className="toast-area" role="alert" aria-atomic="true">
        {toastText && (
          <p className="toast">
            {toastText}
            <button type="button" className="link" onClick={() => setToastText(null)} aria-label={t('workspace.live.dismiss')}>
              ×
            </button>
          </p>
        )}
      </div>
    </AppCtx.Provider>
  );
}
