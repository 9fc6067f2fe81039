/**
 * Keeps the signed-in app live: opens the stream, loads the chat lists once it
 * is live (so nothing falls between the load and the first frame), applies
 * every frame (frames.ts, pure) and runs its effects (effects.ts), publishes
 * the items of the live lists to their subscribers (useLiveList), keeps the
 * unread count in the tab title, and provides the app's four contexts
 * (context.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AgentDto, EventFrame } from '../../../protocol/agent';
import { setTitleCount } from './alerts';
import { api, errorText } from './api';
import {
  AgentsCtx,
  InboxCtx,
  NoticesCtx,
  SessionCtx,
  type AgentsValue,
  type InboxValue,
  type LiveItemOf,
  type NoticesValue,
  type SessionValue,
} from './context';
import { runEffects, type EffectPorts } from './effects';
import { applyFrame, emptyLive, type BadgeKind, type LiveItem, type LiveList, type LiveState } from './frames';
import { t } from './i18n';
import { attentionCount, emptyInbox, inboxReducer, type InboxAction } from './inbox';
import { parseRoute } from './routes';
import { AgentStream, type StreamState } from './stream';

/** Open chats loaded per list (the API's largest page); the lists render only the rows in view. */
const LIST_LIMIT = 1000;

interface Props {
  me: AgentDto;
  setMe: (agent: AgentDto) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  sessionLost: () => void;
  children: ReactNode;
}

export function LiveProvider({ me, setMe, signOut, sessionLost, children }: Props) {
  // The live state (inbox, known chats, badges): the ref is always the latest (frames apply to it at once), the state renders it.
  const liveRef = useRef<LiveState>(emptyLive(emptyInbox));
  const [live, setLive] = useState<LiveState>(liveRef.current);
  const [loaded, setLoaded] = useState(false);
  const [stream, setStream] = useState<StreamState>('connecting');
  const [agents, setAgents] = useState<Record<number, AgentDto>>({ [me.id]: me });
  const [safeUrl, setSafeUrl] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [toastText, setToastText] = useState<string | null>(null);
  const [resyncs, setResyncs] = useState(0);
  const openChat = useRef<number | null>(null);
  const liveListeners = useRef(new Map<LiveList, Set<(item: LiveItem['item']) => void>>());
  const meRef = useRef(me);
  meRef.current = me;

  const update = useCallback((change: (state: LiveState) => LiveState) => {
    const next = change(liveRef.current);
    if (next === liveRef.current) return;
    liveRef.current = next;
    setLive(next);
  }, []);
  const dispatch = useCallback(
    (action: InboxAction) =>
      update((state) => {
        const inbox = inboxReducer(state.inbox, action);
        return inbox === state.inbox ? state : { ...state, inbox };
      }),
    [update],
  );

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
    const chats = [...pending, ...active];
    update((state) => ({ ...state, known: { ...state.known, ...Object.fromEntries(chats.map((c) => [c.id, true as const])) } }));
    dispatch({ type: 'chats', chats });
    // The conversation on screen is read, whatever the rows (read a moment before) say.
    if (openChat.current !== null) dispatch({ type: 'read', chatId: openChat.current });
    setLoaded(true);
  }, [update, dispatch]);

  // Unread state lives on the server (per agent), so a reload or another device shows the same counts.
  const markRead = useCallback((chatId: number) => {
    api.read(chatId).catch(() => {});
  }, []);

  const onFrame = useCallback(
    (frame: EventFrame) => {
      const env = {
        meId: meRef.current.id,
        openChatId: openChat.current,
        visible: document.visibilityState === 'visible',
        page: parseRoute(location.pathname).name,
        now: Date.now(),
      };
      const { state, effects } = applyFrame(liveRef.current, frame, env);
      update(() => state);
      const ports: EffectPorts = {
        dispatch,
        announce,
        agentChanged: (agent) => {
          setAgents((all) => ({ ...all, [agent.id]: agent }));
          if (agent.id === meRef.current.id) setMe(agent);
        },
        // Which chats this agent sees may have changed: the lists, and screens holding data of their own, load again.
        channelsChanged: () => {
          api.myChannels().then(
            (channels) => dispatch({ type: 'channels', visible: channels.map((c) => c.id) }),
            () => {},
          );
          loadLists().catch(() => {});
          setResyncs((n) => n + 1);
        },
        publish: (item) => {
          for (const fn of liveListeners.current.get(item.list) ?? []) fn(item.item);
        },
      };
      runEffects(effects, ports);
    },
    [update, dispatch, announce, setMe, loadLists],
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
  }, [dispatch, markRead]);

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
  }, [onFrame, dispatch, loadLists, reloadAgents, sessionLost, toast]);

  // Expire typing indicators the visitor never ended.
  const typing = live.inbox.typing;
  useEffect(() => {
    const ids = Object.entries(typing);
    if (ids.length === 0) return;
    const next = Math.min(...ids.map(([, until]) => until));
    const timer = window.setTimeout(
      () => {
        for (const [id, until] of ids) if (until <= Date.now()) dispatch({ type: 'typing', chatId: Number(id), until: null });
      },
      Math.max(0, next - Date.now()) + 50,
    );
    return () => window.clearTimeout(timer);
  }, [typing, dispatch]);

  const attention = attentionCount(live.inbox);
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
    [dispatch, markRead],
  );
  const subscribeLive = useCallback(<K extends LiveList>(list: K, fn: (item: LiveItemOf<K>) => void) => {
    const listeners = liveListeners.current;
    const set = listeners.get(list) ?? new Set();
    listeners.set(list, set);
    // Published only under its own list's name: the item is of that list's kind.
    const listener = fn as (item: LiveItem['item']) => void;
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }, []);
  const clearBadge = useCallback(
    (which: BadgeKind) => update((state) => (state.badges[which] === 0 ? state : { ...state, badges: { ...state.badges, [which]: 0 } })),
    [update],
  );

  const session = useMemo<SessionValue>(() => ({ me, setMe, signOut, safeUrl, setSafeUrl }), [me, setMe, signOut, safeUrl]);
  const inboxValue = useMemo<InboxValue>(
    () => ({ inbox: live.inbox, dispatch, loaded, stream, setOpenChat, resyncs, badges: live.badges, clearBadge, subscribeLive }),
    [live.inbox, live.badges, dispatch, loaded, stream, setOpenChat, resyncs, clearBadge, subscribeLive],
  );
  const agentsValue = useMemo<AgentsValue>(() => ({ agents, reloadAgents }), [agents, reloadAgents]);
  const notices = useMemo<NoticesValue>(() => ({ announce, toast }), [announce, toast]);

  return (
    <SessionCtx.Provider value={session}>
      <AgentsCtx.Provider value={agentsValue}>
        <NoticesCtx.Provider value={notices}>
          <InboxCtx.Provider value={inboxValue}>
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
          </InboxCtx.Provider>
        </NoticesCtx.Provider>
      </AgentsCtx.Provider>
    </SessionCtx.Provider>
  );
}
