/**
 * A list of chats: visitor, channel, last line, time, unread count, rating,
 * typing; waiting chats get a Reply button and, while offered to an agent,
 * the offer on a line of its own under the last line, so the visitor's words
 * stay readable (OfferMark: "Offered to you · 0:27"); search results show the matching
 * excerpt with the match highlighted. Only the rows in view are rendered
 * (WindowedList), so long lists scroll smoothly.
 */
import { useInbox } from '../context';
import { chatTitle, dateTime, time } from '../format';
import { dir, t, tn } from '../i18n';
import { previewOf, previewText } from '../inbox';
import { liveOffer, nextExpiry } from '../offers';
import { Link } from '../router';
import type { ChatDto, ChatMatchDto } from '../../../../protocol/agent';
import { Highlighted } from './Highlighted';
import { OfferMark } from './OfferMark';
import { ReplyButton } from './ReplyButton';
import { useRerenderAt } from './useTimeLeft';
import { WindowedList } from './WindowedList';

interface Props {
  chats: ChatDto[];
  openId: number | null;
  empty: string;
  label: string;
  /** Search results: why each chat matched. */
  matches?: Record<number, ChatMatchDto | null>;
  /** Finished chats: the date, not only the time. */
  withDate?: boolean;
}

/** Every row's height (px): the list computes which rows are in view from it. */
const ROW = 68;
/** The rows of a list where some chat is offered: one line more, for the offer. */
const ROW_WITH_OFFER = 90;
const DAY_MS = 86_400_000;

function when(ms: number, withDate: boolean | undefined): string {
  return withDate || Date.now() - ms > DAY_MS ? dateTime(ms) : time(ms);
}

export function ChatList({ chats, openId, empty, label, matches, withDate }: Props) {
  const { inbox } = useInbox();
  // The row's room beside its Reply button is at its end: the left when the page runs right to left (styles.css gives it on the right).
  const rowPadding = dir() === 'rtl' ? { paddingRight: 0, paddingLeft: 8 } : {};
  // Rows keep the offer's line only while some offer is live: when the last one runs out, they shrink back.
  const now = Date.now();
  useRerenderAt(nextExpiry(chats, now));
  if (chats.length === 0) return <p className="muted pad">{empty}</p>;
  const offered = (chat: ChatDto) => liveOffer(chat, now) !== null;
  const rowHeight = chats.some(offered) ? ROW_WITH_OFFER : ROW;
  return (
    <WindowedList
      items={chats}
      rowHeight={rowHeight}
      className="chat-list"
      label={label}
      renderRow={(chat, index) => {
        const unread = chat.id === openId ? 0 : (inbox.unread[chat.id] ?? 0);
        const typing = inbox.typing[chat.id] !== undefined;
        const line = inbox.preview[chat.id] ?? (chat.last_message ? previewOf(chat.last_message) : null);
        const preview = line !== null ? previewText(line) : (chat.visitor.invite ?? '');
        const match = matches?.[chat.id];
        return (
          <li
            key={chat.id}
            className={`chat-item status-${chat.status}${chat.id === openId ? ' open' : ''}`}
            style={{ height: rowHeight, ...rowPadding }}
            data-chat-id={chat.id}
            aria-setsize={chats.length}
            aria-posinset={index + 1}
          >
            <Link href={`/chats/${chat.id}`} className="chat-link" aria-current={chat.id === openId ? 'true' : undefined}>
              <span className="chat-name">
                <bdi>{chatTitle(chat)}</bdi>
                {chat.channel && <span className="chat-channel"> · {chat.channel.name}</span>}
              </span>
              <span className="chat-time">
                {chat.rate && (
                  <span
                    className={`rating rating-${chat.rate}`}
                    role="img"
                    aria-label={t(chat.rate === 'positive' ? 'workspace.rating.good' : 'workspace.rating.bad')}
                  >
                    {chat.rate === 'positive' ? '👍' : '👎'}{' '}
                  </span>
                )}
                {when(chat.updated_at, withDate)}
              </span>
              <span className="chat-preview">{typing ? t('workspace.list.typing') : <bdi>{match ? <Highlighted parts={match.parts} /> : preview}</bdi>}</span>
              {unread > 0 && (
                <span className="badge" aria-label={tn('workspace.list.unread', unread)}>
                  {unread}
                </span>
              )}
              {offered(chat) && (
                <span className="chat-offer">
                  <OfferMark chat={chat} />
                </span>
              )}
            </Link>
            {chat.status === 'pending' && <ReplyButton chat={chat} />}
          </li>
        );
      }}
    />
  );
}
