/** The three live lists of the inbox: waiting (pending) chats, my chats, every active chat. */
import { useSession, useInbox } from '../context';
import { t } from '../i18n';
import { chatsWithStatus } from '../inbox';
import { Link } from '../router';
import { ChatList } from './ChatList';

export type InboxTab = 'pending' | 'mine' | 'active';

export function InboxLists({ tab, openId }: { tab: InboxTab; openId: number | null }) {
  const { me } = useSession();
  const { inbox, loaded } = useInbox();
  const pending = chatsWithStatus(inbox, 'pending');
  const active = chatsWithStatus(inbox, 'active');
  // The chats this agent holds: one transferred away leaves the list, one transferred here joins it.
  const mine = active.filter((c) => c.accepted_by === me.id);
  const lists = { pending, mine, active };
  const tabs: Array<[InboxTab, string]> = [
    ['pending', t('workspace.inbox.pending')],
    ['mine', t('workspace.inbox.mine')],
    ['active', t('workspace.inbox.active')],
  ];
  const empty = t(({ pending: 'workspace.inbox.emptyPending', mine: 'workspace.inbox.emptyMine', active: 'workspace.inbox.emptyActive' } as const)[tab]);
  return (
    <>
      <h1 id="inbox-title" className="sr-only">
        {t('workspace.inbox.title')}
      </h1>
      <nav className="tabs" aria-label={t('workspace.inbox.tabs')}>
        {tabs.map(([key, label]) => (
          <Link key={key} href={`/inbox/${key}`} aria-current={tab === key ? 'page' : undefined} className="tab">
            {label} <span className="count">{lists[key].length}</span>
          </Link>
        ))}
      </nav>
      {!loaded ? (
        <p className="muted pad" aria-busy="true">
          {t('workspace.inbox.loading')}
        </p>
      ) : (
        <ChatList chats={lists[tab]} openId={openId} empty={empty} label={tabs.find(([k]) => k === tab)?.[1] ?? ''} />
      )}
    </>
  );
}
