/**
 * The widget's forms: contacts (the visitor introduces himself), offline
 * message (nobody online), callback (state `call`), the rating (during the
 * chat and after it), and "e-mail me this conversation" once the visitor gave
 * an e-mail address.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { isEmail, offlineError, phoneError } from '../../shared/validate';
import type { UiState } from '../state';
import type { Widget } from '../widget';
import { Field, formValues } from './fields';
import { ThumbDownIcon, ThumbUpIcon } from './icons';
import { lang, t } from '../i18n';
import { formatCallbackHours } from '../callbackHours';

type Props = { w: Widget; s: UiState };

export function ContactsForm({ w, s }: Props) {
  const [error, setError] = useState('');
  const submit = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    if (!v.name && !v.email && !v.phone) return setError(t('fillOne'));
    if (v.email && !isEmail(v.email)) return setError(t('badEmail'));
    void w.saveContact({ client_name: v.name, email: v.email, phone: v.phone }, true).catch(() => w.set({ notice: t('notSaved') }));
  };
  return (
    <form class="form" aria-label={t('contacts')} onSubmit={submit}>
      <h2>{t('introTitle')}</h2>
      <p>{t('introText')}</p>
      <Field label={t('name')} name="name" autocomplete="name" value={s.contact.client_name ?? ''} />
      <Field label={t('email')} name="email" type="email" autocomplete="email" value={s.contact.email ?? ''} />
      <Field label={t('phone')} name="phone" type="tel" autocomplete="tel" value={s.contact.phone ?? ''} />
      {error && (
        <p class="notice" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary">
          {t('save')}
        </button>
        <button type="button" class="link" onClick={() => w.set({ contactsOpen: false })}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

export function OfflineForm({ w, s }: Props) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (s.offlineSent) {
    return (
      <div class="form" role="status">
        <h2>{t('thanks')}</h2>
        <p>{t('offlineSent')}</p>
        <button type="button" class="link" onClick={() => w.set({ offlineSent: false })}>
          {t('another')}
        </button>
      </div>
    );
  }
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    const message = { name: v.name, email: v.email, phone: v.phone, message: v.message };
    const invalid = offlineError(message) ?? (!v.email && !v.phone ? t('needContact') : null);
    if (invalid) return setError(invalid);
    setBusy(true);
    const failed = await w.sendOffline(message);
    setBusy(false);
    setError(failed ?? '');
  };
  return (
    <form class="form" aria-label={t('leaveMessage')} onSubmit={submit}>
      <h2>{t('offlineTitle')}</h2>
      <p>{s.appearance.offline_text ?? t('offlineText')}</p>
      <Field label={t('name')} name="name" autocomplete="name" value={s.contact.client_name ?? ''} />
      <Field label={t('email')} name="email" type="email" autocomplete="email" value={s.contact.email ?? ''} />
      <Field label={t('phone')} name="phone" type="tel" autocomplete="tel" value={s.contact.phone ?? ''} />
      <Field label={t('message')} name="message" required multiline />
      {error && (
        <p class="notice" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {t('send')}
        </button>
      </div>
    </form>
  );
}

/** What really happens at each step (an agent dials the visitor from his own phone): never "calling you" before anyone is. */
const CALL_STATUS: Record<string, (phone: string) => string> = {
  requested: () => t('callRequested'),
  start: (phone) => t('callStart', { phone }),
  agent_connected: () => t('callAgent'),
  client_connected: () => t('callConnected'),
  end: () => t('callEnd'),
};

/** Why a call failed, in the visitor's language (the reasons the page's svc_onCallEnd gets stay the spec's English ones). */
function callFailure(reason: string | undefined): string {
  if (reason === 'Callback disabled') return t('callsOff');
  if (reason === 'Callback unavaiable') return t('callsNow');
  return lang === 'en' && reason ? t('callFailed', { reason }) : t('failed');
}

export function CallbackForm({ w, s }: Props) {
  const [error, setError] = useState('');
  const unavailable = s.callback?.result === 'fail' ? s.callback.reason : null;
  const submit = (e: Event): void => {
    e.preventDefault();
    const phone = formValues(e.currentTarget as HTMLFormElement).phone;
    if (phoneError(phone)) return setError(t('badPhone'));
    setError('');
    void w.startCall(phone);
  };
  // Nobody online: no "in a moment", but when they will call (the callback hours, or as soon as an agent is there).
  const hours = formatCallbackHours(s.callbackHours, lang);
  const when = { hours, zone: s.callbackHours?.timezone ?? '' };
  const later = !s.online;
  const status =
    s.call &&
    (s.call.status === 'error'
      ? callFailure(s.call.reason)
      : s.call.status === 'start' && later
        ? t(hours ? 'callStartHours' : 'callStartLater', { phone: s.call.phone ?? '', ...when })
        : CALL_STATUS[s.call.status]?.(s.call.phone ?? ''));
  return (
    <form class="form" aria-label={t('callMe')} onSubmit={submit}>
      <h2>{t('callTitle')}</h2>
      <p>{later ? t(hours ? 'callTextHours' : 'callTextLater', when) : t('callText')}</p>
      <Field label={t('phone')} name="phone" type="tel" autocomplete="tel" required value={s.contact.phone ?? ''} />
      {(error || unavailable) && (
        <p class="notice" role="alert">
          {error || (unavailable === 'Callback disabled' ? t('callsOff') : hours ? `${t('callsNow')} ${t('callHoursAre', when)}` : t('callsNow'))}
        </p>
      )}
      {status && (
        <p role="status" class="status">
          {status}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={!!unavailable}>
          {t('callMe')}
        </button>
        <button type="button" class="link" onClick={() => w.set({ view: 'chat' })}>
          {t('backToChat')}
        </button>
      </div>
    </form>
  );
}

/**
 * The rating: during the chat (once an agent has taken it) the visitor rates it and may change his mind until it is
 * finished; a finished chat not yet rated asks once more, and a rated one thanks.
 */
export function Rating({ w, s }: Props) {
  const rate = s.chat?.rate ?? null;
  const finished = s.chat?.status === 'finished';
  if (finished && rate) {
    return (
      <div class="rating" role="group" aria-label={t('rateChat')}>
        <p role="status">{t('rated')}</p>
      </div>
    );
  }
  const choice = (r: 'positive' | 'negative', label: string, icon: JSX.Element) => (
    <button type="button" class="rate" aria-label={label} aria-pressed={rate === r} onClick={() => void (rate !== r && w.rate(r))}>
      {icon}
    </button>
  );
  return (
    <div class={finished ? 'rating' : 'rating live'} role="group" aria-label={t('rateChat')}>
      <p role="status">{rate ? t('rated') : t('rateChat')}</p>
      {choice('positive', t('good'), <ThumbUpIcon />)}
      {choice('negative', t('bad'), <ThumbDownIcon />)}
    </div>
  );
}

/**
 * The chat was finished (by the agent): the visitor is told so, by whom, and that writing starts a new chat;
 * the button puts the cursor in the composer. Shown until the next chat starts.
 */
export function ChatEnded({ s }: { s: UiState }) {
  const name = s.chat?.agent?.name;
  return (
    <div class="ended" role="status">
      <p>{name ? t('endedBy', { name }) : t('ended')}</p>
      <button
        type="button"
        class="link"
        onClick={(e) => (e.currentTarget.closest('.window')?.querySelector('.composer textarea') as HTMLElement | null)?.focus()}
      >
        {t('newChat')}
      </button>
    </div>
  );
}

/** After the first message of a visitor we know nothing about: an offer to introduce himself. */
export function ContactCard({ w, onDismiss }: { w: Widget; onDismiss: () => void }) {
  return (
    <div class="card" role="note">
      <p>{t('cardText')}</p>
      <button type="button" class="primary" onClick={() => w.set({ contactsOpen: true })}>
        {t('introTitle')}
      </button>
      <button type="button" class="link" onClick={onDismiss}>
        {t('notNow')}
      </button>
    </div>
  );
}

/**
 * Shown when the visitor gave an e-mail address and there is a conversation: mails it there (POST transcript),
 * or, while the address is not proved, a link the visitor must open first: the visitor is told so.
 */
export function TranscriptOffer({ w, email }: { w: Widget; email: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'confirm' | 'failed'>('idle');
  const send = async (): Promise<void> => {
    setState('busy');
    setState(await w.mailTranscript());
  };
  return (
    <div class="transcript">
      {state === 'sent' || state === 'confirm' ? (
        <p role="status">{t(state === 'sent' ? 'transcriptSent' : 'transcriptConfirm', { email })}</p>
      ) : (
        <>
          <button type="button" class="link" disabled={state === 'busy'} onClick={() => void send()}>
            {t('mailTranscript')}
          </button>
          {state === 'failed' && (
            <p class="notice" role="alert">
              {t('transcriptFailed')}
            </p>
          )}
        </>
      )}
    </div>
  );
}
