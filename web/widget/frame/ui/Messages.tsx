/**
 * The conversation: the invitation, the messages (text only, never HTML; http(s) links clickable), sends in flight and failed ones.
 * Each text and agent name takes its own direction (dir="auto", <bdi>): an Arabic message in an English widget, or an
 * English one in an Arabic widget, keeps its punctuation at its end.
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { WidgetMessage } from '../../../../protocol/widget';
import type { UiState } from '../state';
import type { Widget } from '../widget';
import { fileSize, safeUrl } from './useWidget';
import { lang, t } from '../i18n';

/** A message's time, written the way the widget's language writes times. */
const time = (ms: number): string => new Date(ms).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });

/** http(s) addresses in a text, up to a space or a quote; the punctuation that ends a sentence stays out. */
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gi;

/** A message's text with its http(s) links as links opening in a new tab (nothing else becomes markup: Preact escapes the rest). */
export function Linked({ text }: { text: string }) {
  const parts: (string | JSX.Element)[] = [];
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    const i = m.index ?? 0;
    if (i > at) parts.push(text.slice(at, i));
    parts.push(
      <a key={i} href={m[0]} target="_blank" rel="noopener noreferrer">
        {m[0]}
      </a>,
    );
    at = i + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <p dir="auto">{parts}</p>;
}

function Body({ m }: { m: WidgetMessage }) {
  const file = safeUrl(m.file);
  if ((m.type === 'photo' || m.type === 'sticker') && file) {
    // An image with its caption (an agent's picture may carry text).
    return (
      <>
        <a href={file} target="_blank" rel="noopener noreferrer">
          <img class="photo" src={safeUrl(m.thumb) ?? file} alt={m.file_name ?? t('image')} />
        </a>
        {m.text && <Linked text={m.text} />}
      </>
    );
  }
  if (m.type === 'location' && typeof m.latitude === 'number' && typeof m.longitude === 'number') {
    return (
      <a href={`https://www.openstreetmap.org/?mlat=${m.latitude}&mlon=${m.longitude}`} target="_blank" rel="noopener noreferrer">
        {t('location')} {m.latitude.toFixed(5)}, {m.longitude.toFixed(5)}
      </a>
    );
  }
  return (
    <>
      {file && (
        <a class="file" href={file} target="_blank" rel="noopener noreferrer">
          {m.file_name ?? t('file')} {fileSize(m.file_size)}
        </a>
      )}
      {m.text && <Linked text={m.text} />}
    </>
  );
}

export function Messages({ w, s }: { w: Widget; s: UiState }) {
  const log = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [s.messages.length, s.pending.length, s.invitation, s.chat?.status]);
  return (
    <div class="log" role="log" aria-live="polite" aria-label={t('conversation')} ref={log}>
      {s.appearance.greeting && !s.invitation && !s.chat && (
        <div class="msg agent greeting">
          <Linked text={s.appearance.greeting} />
        </div>
      )}
      {s.invitation && (
        <div class="msg agent invite">
          <Linked text={s.invitation.text} />
        </div>
      )}
      {s.messages.map((m) => (
        <div key={m.id} class={`msg ${m.author}`} data-id={m.id}>
          {m.author === 'agent' && m.agent && <bdi class="who">{m.agent.name}</bdi>}
          <Body m={m} />
          <time>{time(m.created_at)}</time>
        </div>
      ))}
      {s.pending.map((p) => (
        <div key={`p${p.key}`} class={`msg visitor ${p.status}`}>
          <p dir="auto">{p.text ?? p.file_name}</p>
          {p.status === 'sending' ? (
            <time>{t('sending')}</time>
          ) : (
            <span role="alert" class="error">
              {t('notSent')} {p.error}{' '}
              <button type="button" class="link" onClick={() => w.dismissPending(p.key)}>
                {t('dismiss')}
              </button>
            </span>
          )}
        </div>
      ))}
    </div>
  );
}
