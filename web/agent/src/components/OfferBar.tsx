/**
 * The offer bar of a waiting chat offered to this agent (docs/ROUTING.md
 * "What the agent sees"): "Offered to you", the time left counting down,
 * Accept (the Reply action: POST /chats/:id/accept) and Decline (POST
 * /chats/:id/decline, passing it to the next agent at once). It follows the
 * inbox state live: a re-offer to this agent brings it back with the new
 * time; the offer moving to another agent, running out or the chat being
 * taken removes the buttons. What a Decline did (or why the server refused
 * it) stays next to where the buttons were, until a new offer to this agent.
 */
import { useState } from 'react';
import { api } from '../api';
import { useSession, useInbox, useNotices } from '../context';
import { t } from '../i18n';
import { declineRefusal, pendingOffer, timeLeft, timeLeftWords } from '../offers';
import type { ChatDto } from '../../../../protocol/agent';
import { Phrase } from './Phrase';
import { ReplyButton } from './ReplyButton';
import { useTimeLeft } from './useTimeLeft';

interface Note {
  /** The server's refusal in words; null: the Decline was taken (said at render, in the agent's language). */
  refusal: string | null;
  /** The offer it answered. */
  attempt: number;
}

export function OfferBar({ chat }: { chat: ChatDto }) {
  const { me } = useSession();
  const { dispatch } = useInbox();
  const { announce } = useNotices();
  const offer = pendingOffer(chat);
  const left = useTimeLeft(offer?.expires_at ?? null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note | null>(null);
  const mine = offer !== null && offer.agent_id === me.id && left > 0 ? offer : null;

  const decline = async (attempt: number) => {
    setBusy(true);
    setNote(null);
    try {
      await api.decline(chat.id);
      dispatch({ type: 'declined', chatId: chat.id, attempt });
      setNote({ refusal: null, attempt });
      announce(t('workspace.offer.declinedAnnounced'));
    } catch (err) {
      setNote({ refusal: declineRefusal(err), attempt });
    } finally {
      setBusy(false);
    }
  };

  if (chat.status !== 'pending') return null;
  // A note belongs to the offer it answered: a new offer to this agent replaces it.
  const shown = note && !(mine && mine.attempt !== note.attempt) ? note : null;
  if (!mine && !shown) return null;
  return (
    <section className={`offer-bar${mine ? ' offer-mine' : ''}`} aria-label={t('workspace.offer.region')}>
      {mine && (
        <>
          <p className="offer-text">
            <Phrase
              text={t('workspace.offer.acceptWithin')}
              parts={{
                offered: <strong>{t('workspace.offer.you')}</strong>,
                time: (
                  <span className="offer-time" role="timer" aria-label={t('workspace.offer.left', { time: timeLeftWords(left) })}>
                    {timeLeft(left)}
                  </span>
                ),
              }}
            />
          </p>
          <div className="offer-actions">
            <ReplyButton chat={chat} label={t('workspace.offer.accept')} />
            <button type="button" disabled={busy} onClick={() => void decline(mine.attempt)}>
              {t('workspace.offer.decline')}
            </button>
          </div>
        </>
      )}
      {shown &&
        (shown.refusal !== null ? (
          <p className="error offer-note" role="alert">
            {shown.refusal}
          </p>
        ) : (
          <p className="muted offer-note" role="status">
            {t('workspace.offer.declined')}
          </p>
        ))}
    </section>
  );
}
