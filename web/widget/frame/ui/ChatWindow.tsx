/** The open widget: header (agent name and photo, or the initial while the photo cannot be loaded; status, actions) and what the window shows now. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { chatOpen, type UiState } from '../state';
import type { Widget } from '../widget';
import { Composer } from './Composer';
import { CallbackForm, ChatEnded, ContactCard, ContactsForm, OfflineForm, Rating, TranscriptOffer } from './Forms';
import { MinimizeIcon, PersonIcon, PhoneIcon } from './icons';
import { Messages } from './Messages';
import { safeUrl } from './useWidget';
import { t } from '../i18n';

function minimize(w: Widget): void {
  w.focusRequested = true;
  w.closeWindow();
}

function Header({ w, s }: { w: Widget; s: UiState }) {
  const agent = s.chat?.status === 'active' ? s.chat.agent : null;
  const wanted = safeUrl(agent?.photo) ?? (agent ? undefined : safeUrl(s.appearance.logo));
  // A photo or logo that failed to load: the initial instead of a broken image (a new address is tried).
  const [failed, setFailed] = useState<string | null>(null);
  const photo = wanted && wanted !== failed ? wanted : undefined;
  const status = s.agentTyping ? t('typing') : s.online ? t('online') : (s.appearance.away_text ?? t('offline'));
  return (
    <header>
      {photo ? (
        <img class="avatar" src={photo} alt="" onError={() => setFailed(photo)} />
      ) : (
        <span class="avatar" aria-hidden="true">
          {(agent?.name ?? (s.appearance.title || s.account_name || t('support'))).slice(0, 1).toUpperCase()}
        </span>
      )}
      <div class="title">
        <h1>
          <bdi>{agent?.name ?? (s.appearance.title || s.account_name || t('support'))}</bdi>
        </h1>
        <p>{status}</p>
      </div>
      <button type="button" class="icon" aria-label={t('contacts')} onClick={() => w.set({ contactsOpen: true, view: 'chat' })}>
        <PersonIcon />
      </button>
      {!(s.callback?.result === 'fail' && s.callback.reason === 'Callback disabled') && (
        <button type="button" class="icon" aria-label={t('callMe')} onClick={() => w.openWindow('call')}>
          <PhoneIcon />
        </button>
      )}
      <button type="button" class="icon" aria-label={t('minimize')} onClick={() => minimize(w)}>
        <MinimizeIcon />
      </button>
    </header>
  );
}

function Body({ w, s }: { w: Widget; s: UiState }) {
  const [cardDismissed, dismissCard] = useState(false);
  if (s.view === 'call') return <CallbackForm w={w} s={s} />;
  if (s.contactsOpen) return <ContactsForm w={w} s={s} />;
  const finished = s.chat?.status === 'finished';
  if (!s.online && !chatOpen(s.chat) && !(finished && !s.chat?.rate)) return <OfflineForm w={w} s={s} />;
  const anonymous = !s.contact.client_name && !s.contact.email && !s.contact.phone;
  const wrote = chatOpen(s.chat) && s.messages.some((m) => m.author === 'visitor' && m.chat_id === s.chat?.id);
  const talked = s.chat !== null && s.messages.some((m) => m.chat_id === s.chat?.id);
  return (
    <>
      <Messages w={w} s={s} />
      {finished && <ChatEnded s={s} />}
      {anonymous && wrote && !cardDismissed && <ContactCard w={w} onDismiss={() => dismissCard(true)} />}
      {talked && s.contact.email && <TranscriptOffer key={s.chat?.id} w={w} email={s.contact.email} />}
      {(finished || s.chat?.status === 'active') && <Rating w={w} s={s} />}
      <p class="typing" aria-live="polite">
        {s.agentTyping ? t('isTyping', { name: s.agentTyping.name }) : ''}
      </p>
      <Composer w={w} s={s} />
    </>
  );
}

export function ChatWindow({ w, s }: { w: Widget; s: UiState }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    // Only when the visitor opened it here: a page's svc_api.open() never steals the focus.
    if (!w.focusRequested) return;
    w.focusRequested = false;
    section.current?.querySelector<HTMLElement>('textarea, input:not([type=file])')?.focus();
  }, [w]);
  return (
    <section
      class="window"
      role="dialog"
      aria-label={t('chat')}
      ref={section}
      onKeyDown={(e) => {
        if (e.key === 'Escape') minimize(w);
      }}
    >
      <Header w={w} s={s} />
      {!s.connected && s.phase === 'ready' && (
        <p class="offline-bar" role="status">
          {t('reconnecting')}
        </p>
      )}
      <Body w={w} s={s} />
    </section>
  );
}
