/**
 * A waiting chat's offer in its list row (docs/ROUTING.md "What the agent
 * sees"): "Offered to you · 0:27", counting down, for the agent whose turn it
 * is; "Offered to Ben" for the others; nothing once it runs out or the chat
 * stops waiting. Follows the inbox state, which chat.offered frames move.
 */
import { useSession, useAgents } from '../context';
import { t } from '../i18n';
import { pendingOffer, timeLeft, timeLeftWords } from '../offers';
import type { ChatDto } from '../../../../protocol/agent';
import { Phrase } from './Phrase';
import { useTimeLeft } from './useTimeLeft';

export function OfferMark({ chat }: { chat: ChatDto }) {
  const { me } = useSession();
  const { agents } = useAgents();
  const offer = pendingOffer(chat);
  const left = useTimeLeft(offer?.expires_at ?? null);
  if (!offer || left <= 0) return null;
  if (offer.agent_id !== me.id) {
    const name = agents[offer.agent_id]?.name;
    return <span className="pill pill-offer-other">{name ? t('workspace.offer.to', { name }) : t('workspace.offer.toOther')}</span>;
  }
  return (
    <span className="pill pill-offer">
      <Phrase
        text={t('workspace.offer.youTimer')}
        parts={{
          time: (
            <span role="timer" aria-label={t('workspace.offer.leftToAccept', { time: timeLeftWords(left) })}>
              {timeLeft(left)}
            </span>
          ),
        }}
      />
    </span>
  );
}
