/**
 * The content of a message by type (spec multimedia messages): text, images
 * and stickers inline, audio/voice and video players, documents as links,
 * locations as a map link. Only http(s) URLs ever become src or href (and
 * mailto in a text: LinkedText). Every text takes its own direction.
 * A file an administrator freed (file_removed) is named, not linked.
 */
import { fileSize, safeHref, safeImage } from '../format';
import { t } from '../i18n';
import type { MessageDto } from '../../../../protocol/agent';
import { LinkedText } from './LinkedText';

function Caption({ text }: { text?: string }) {
  return text ? <LinkedText text={text} /> : null;
}

function FileLink({ href, message, label }: { href: string; message: MessageDto; label: string }) {
  const name = message.file_name || label;
  const size = fileSize(message.file_size);
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="file-link">
      <bdi>{name}</bdi>
      {size && <span className="muted small"> ({size})</span>}
    </a>
  );
}

export function MessageBody({ message: m }: { message: MessageDto }) {
  if (m.file_removed) {
    const size = fileSize(m.file_size);
    const name = m.file_name || t('workspace.media.file');
    return (
      <div className="media">
        <Caption text={m.text} />
        <p className="muted">{t('workspace.media.removed', { file: size ? t('workspace.media.nameSize', { name, size }) : name })}</p>
      </div>
    );
  }
  const file = safeHref(m.file);
  const photoWord = t(m.type === 'sticker' ? 'workspace.media.sticker' : 'workspace.media.photo');
  const audioWord = t(m.type === 'voice' ? 'workspace.media.voice' : 'workspace.media.audio');
  switch (m.type) {
    case 'text':
      return <LinkedText text={m.text ?? ''} />;
    case 'photo':
    case 'sticker': {
      const src = safeImage(m.thumb) ?? safeImage(m.file);
      return (
        <div className="media">
          {src && file ? (
            <a href={file} target="_blank" rel="noopener noreferrer">
              <img src={src} alt={m.file_name || (m.type === 'sticker' && m.emoji) || photoWord} loading="lazy" />
            </a>
          ) : (
            file && <FileLink href={file} message={m} label={photoWord} />
          )}
          <Caption text={m.text} />
        </div>
      );
    }
    case 'video':
      return (
        <div className="media">
          {file && (
            <video controls preload="metadata" src={file} poster={safeImage(m.thumb) ?? undefined} aria-label={m.file_name || t('workspace.media.video')} />
          )}
          {file && <FileLink href={file} message={m} label={t('workspace.media.video')} />}
          <Caption text={m.text} />
        </div>
      );
    case 'audio':
    case 'voice':
      return (
        <div className="media">
          {m.performer || m.title ? <p className="small">{[m.performer, m.title].filter(Boolean).join(' — ')}</p> : null}
          {file && <audio controls preload="metadata" src={file} aria-label={m.file_name || audioWord} />}
          {file && <FileLink href={file} message={m} label={audioWord} />}
          <Caption text={m.text} />
        </div>
      );
    case 'document':
      return (
        <div className="media">
          {file ? <FileLink href={file} message={m} label={t('workspace.media.document')} /> : <p className="muted">{t('workspace.media.document')}</p>}
          <Caption text={m.text} />
        </div>
      );
    case 'location': {
      const ok = typeof m.latitude === 'number' && typeof m.longitude === 'number';
      const href = ok ? `https://www.openstreetmap.org/?mlat=${m.latitude}&mlon=${m.longitude}#map=16/${m.latitude}/${m.longitude}` : null;
      return (
        <div className="media">
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer" className="file-link">
              <span aria-hidden="true">📍 </span>
              {t('workspace.media.locationLink', { latitude: m.latitude?.toFixed(5) ?? '', longitude: m.longitude?.toFixed(5) ?? '' })}
            </a>
          ) : (
            <p className="muted">{t('workspace.media.location')}</p>
          )}
          <Caption text={m.text} />
        </div>
      );
    }
    default:
      return (
        <div className="media">
          {m.text ? <LinkedText text={m.text} /> : <p className="muted">[{m.type}]</p>}
          {file && <FileLink href={file} message={m} label={t('workspace.media.attachment')} />}
        </div>
      );
  }
}
