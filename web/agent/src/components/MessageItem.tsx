/**
 * One message: who wrote it and when, its content, and for agent replies the
 * delivery status. Private notes look different and say who sees them. The
 * author's name is isolated (<bdi>): a right-to-left name moves nothing around it.
 */
import { useAgents } from '../context';
import { time, visitorName } from '../format';
import { t } from '../i18n';
import type { ChatDto, MessageDto } from '../../../../protocol/agent';
import { DeliveryStatus } from './DeliveryStatus';
import { MessageBody } from './MessageBody';

export function MessageItem({ message, chat }: { message: MessageDto; chat: ChatDto }) {
  const { agents } = useAgents();
  const author =
    message.author === 'visitor'
      ? visitorName(chat.visitor)
      : message.author === 'agent'
        ? (agents[message.agent_id ?? -1]?.name ?? t('workspace.message.agent'))
        : t('workspace.message.system');
  const kind = message.internal ? 'note' : message.author;
  return (
    <li className={`message ${kind}`} data-message-id={message.id}>
      <div className="meta">
        <bdi className="author">{author}</bdi>
        {message.internal && <span className="pill pill-note">{t('workspace.message.note')}</span>}
        <time dateTime={new Date(message.created_at).toISOString()}>{time(message.created_at)}</time>
      </div>
      <MessageBody message={message} />
      {message.author === 'agent' && !message.internal && message.delivery && <DeliveryStatus delivery={message.delivery} />}
    </li>
  );
}
