/**
 * The inbox screen: the chat lists on the left, the open conversation on the
 * right. At phone width only one of them shows (the conversation when one is
 * open, with a link back). `/chats/:id?list=mine` shows that list beside it.
 */
import { useRef } from 'react';
import { t } from '../i18n';
import type { Route } from '../router';
import { Conversation } from './Conversation';
import { InboxLists, type InboxTab } from './InboxLists';

export function Workspace({ route }: { route: Extract<Route, { name: 'inbox' | 'chat' }> }) {
  const lastTab = useRef<InboxTab>('pending');
  if (route.name === 'inbox') lastTab.current = route.tab;
  // A chat opened for the agent (transferred to them: frames.ts) names the list it is in.
  const list = route.name === 'chat' ? new URLSearchParams(location.search).get('list') : null;
  if (list === 'mine' || list === 'pending' || list === 'active') lastTab.current = list;
  const chatId = route.name === 'chat' ? route.id : null;
  return (
    <div className={`workspace${chatId !== null ? ' has-chat' : ''}`}>
      <section className="lists" aria-labelledby="inbox-title">
        <InboxLists tab={lastTab.current} openId={chatId} />
      </section>
      <section className="conversation-pane" aria-label={t('workspace.inbox.conversation')}>
        {chatId !== null ? <Conversation key={chatId} chatId={chatId} /> : <p className="placeholder">{t('workspace.inbox.choose')}</p>}
      </section>
    </div>
  );
}
