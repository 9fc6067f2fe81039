/**
 * The widget's forms: contacts (the visitor introduces himself), offline
 * message (nobody online), callback (state `call`), and the rating of a
 * finished chat.
 */
import { useState } from 'preact/hooks';
import { isEmail, offlineError, phoneError } from '../../shared/validate';
import type { UiState } from '../state';
import type { Widget } from '../widget';
import { Field, formValues } from './fields';
import { ThumbDownIcon, ThumbUpIcon } from './icons';

type Props = { w: Widget; s: UiState };

export function ContactsForm({ w, s }: Props) {
  const [error, setError] = useState('');
  const submit = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    if (!v.name && !v.email && !v.phone) return setError('Please fill in at least one field.');
    if (v.email && !isEmail(v.email)) return setError('Please enter a valid e-mail address.');
    void w
      .saveContact({ client_name: v.name, email: v.email, phone: v.phone }, true)
      .catch(() => w.set({ notice: 'Your details were not saved; please try again.' }));
  };
  return (
    <form class="form" aria-label="Your contact details" onSubmit={submit}>
      <h2>Introduce yourself</h2>
      <p>So that we can reach you if the chat is cut off.</p>
      <Field label="Name" name="name" autocomplete="name" value={s.contact.client_name ?? ''} />
      <Field label="E-mail" name="email" type="email" autocomplete="email" value={s.contact.email ?? ''} />
      <Field label="Phone" name="phone" type="tel" autocomplete="tel" value={s.contact.phone ?? ''} />
      {error && (
        <p class="notice" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" class="link" onClick={() => w.set({ contactsOpen: false })}>
          Cancel
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
        <h2>Thank you!</h2>
        <p>We have your message and will get back to you.</p>
        <button type="button" class="link" onClick={() => w.set({ offlineSent: false })}>
          Send another message
        </button>
      </div>
    );
  }
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    const message = { name: v.name, email: v.email, phone: v.phone, message: v.message };
    const invalid = offlineError(message) ?? (!v.email && !v.phone ? 'Please leave an e-mail address or a phone number so that we can answer.' : null);
    if (invalid) return setError(invalid);
    setBusy(true);
    const failed = await w.sendOffline(message);
    setBusy(false);
    setError(failed ?? '');
  };
  return (
    <form class="form" aria-label="Leave a message" onSubmit={submit}>
      <h2>We are offline</h2>
      <p>Leave a message and we will get back to you.</p>
      <Field label="Name" name="name" autocomplete="name" value={s.contact.client_name ?? ''} />
      <Field label="E-mail" name="email" type="email" autocomplete="email" value={s.contact.email ?? ''} />
      <Field label="Phone" name="phone" type="tel" autocomplete="tel" value={s.contact.phone ?? ''} />
      <Field label="Message" name="message" required multiline />
      {error && (
        <p class="notice" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Send
        </button>
      </div>
    </form>
  );
}

/** What really happens at each step (an agent dials the visitor from his own phone): never "calling you" before anyone is. */
const CALL_STATUS: Record<string, (phone: string) => string> = {
  requested: () => 'Sending your request…',
  start: (phone) => `Thank you! An agent will call you${phone ? ` at ${phone}` : ''} shortly.`,
  agent_connected: () => 'An agent is calling you now.',
  client_connected: () => 'You are connected with an agent.',
  end: () => 'The call has ended.',
};

export function CallbackForm({ w, s }: Props) {
  const [error, setError] = useState('');
  const unavailable = s.callback?.result === 'fail' ? s.callback.reason : null;
  const submit = (e: Event): void => {
    e.preventDefault();
    const phone = formValues(e.currentTarget as HTMLFormElement).phone;
    if (phoneError(phone)) return setError('Please enter your number with + and the country code, such as +1 555 010 0199.');
    setError('');
    void w.startCall(phone);
  };
  const status =
    s.call && (s.call.status === 'error' ? `The call failed: ${s.call.reason ?? 'unknown reason'}` : CALL_STATUS[s.call.status]?.(s.call.phone ?? ''));
  return (
    <form class="form" aria-label="Call me back" onSubmit={submit}>
      <h2>We will call you back</h2>
      <p>Leave your number and an agent will call you in a moment.</p>
      <Field label="Phone" name="phone" type="tel" autocomplete="tel" required value={s.contact.phone ?? ''} />
      {(error || unavailable) && (
        <p class="notice" role="alert">
          {error || (unavailable === 'Callback disabled' ? 'Calls are not available.' : 'Calls are not available right now.')}
        </p>
      )}
      {status && (
        <p role="status" class="status">
          {status}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={!!unavailable}>
          Call me back
        </button>
        <button type="button" class="link" onClick={() => w.set({ view: 'chat' })}>
          Back to the chat
        </button>
      </div>
    </form>
  );
}

export function Rating({ w, s }: Props) {
  const rate = s.chat?.rate;
  return (
    <div class="rating" role="group" aria-label="Rate this chat">
      {rate ? (
        <p role="status">Thank you for your rating.</p>
      ) : (
        <>
          <p>The chat has ended. How was it?</p>
          <button type="button" class="rate" aria-label="Good" onClick={() => void w.rate('positive')}>
            <ThumbUpIcon />
          </button>
          <button type="button" class="rate" aria-label="Bad" onClick={() => void w.rate('negative')}>
            <ThumbDownIcon />
          </button>
        </>
      )}
    </div>
  );
}

/** After the first message of a visitor we know nothing about: an offer to introduce himself. */
export function ContactCard({ w, onDismiss }: { w: Widget; onDismiss: () => void }) {
  return (
    <div class="card" role="note">
      <p>Leave your contact details so that we can reach you.</p>
      <button type="button" class="primary" onClick={() => w.set({ contactsOpen: true })}>
        Introduce yourself
      </button>
      <button type="button" class="link" onClick={onDismiss}>
        Not now
      </button>
    </div>
  );
}
