/**
 * The content of a message by type (spec multimedia messages): text, images
 * and stickers inline, audio/voice and video players, documents as links,
 * locations as a map link. Only http(s) URLs ever become src or href (and
 * mailto in a text: LinkedText). Every text takes its own direction.
 * A file an administrator freed (file_removed) is named, not linked.
 */
import { fileSize, safeHref, safeImage } from '../format';
import type { Message } from '../types';
import { LinkedText } from './LinkedText';

function Caption({ text }: { text?: string }) {
  return text ? <LinkedText text={text} /> : null;
}

function FileLink({ href, message, label }: { href: string; message: Message; label: string }) {
  const name = message.file_name || label;
  const size = fileSize(message.file_size);
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="file-link">
      <bdi>{name}</bdi>
      {size && <span className="muted small"> ({size})</span>}
    </a>
  );
}

export function MessageBody({ message: m }: { message: Message }) {
  if (m.file_removed) {
    const size = fileSize(m.file_size);
    return (
      <div className="media">
        <Caption text={m.text} />
        <p className="muted">
          {m.file_name || 'File'}
          {size && ` (${size})`}: removed by an administrator to free space
        </p>
      </div>
    );
  }
  const file = safeHref(m.file);
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
              <img src={src} alt={m.file_name || (m.type === 'sticker' ? m.emoji || 'Sticker' : 'Photo')} loading="lazy" />
            </a>
          ) : (
            file && <FileLink href={file} message={m} label={m.type === 'sticker' ? 'Sticker' : 'Photo'} />
          )}
          <Caption text={m.text} />
        </div>
      );
    }
    case 'video':
      return (
        <div className="media">
          {file && <video controls preload="metadata" src={file} poster={safeImage(m.thumb) ?? undefined} aria-label={m.file_name || 'Video'} />}
          {file && <FileLink href={file} message={m} label="Video" />}
          <Caption text={m.text} />
        </div>
      );
    case 'audio':
    case 'voice':
      return (
        <div className="media">
          {m.performer || m.title ? <p className="small">{[m.performer, m.title].filter(Boolean).join(' — ')}</p> : null}
          {file && <audio controls preload="metadata" src={file} aria-label={m.file_name || (m.type === 'voice' ? 'Voice message' : 'Audio')} />}
          {file && <FileLink href={file} message={m} label={m.type === 'voice' ? 'Voice message' : 'Audio'} />}
          <Caption text={m.text} />
        </div>
      );
    case 'document':
      return (
        <div className="media">
          {file ? <FileLink href={file} message={m} label="Document" /> : <p className="muted">Document</p>}
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
              <span aria-hidden="true">📍 </span>Location {m.latitude?.toFixed(5)}, {m.longitude?.toFixed(5)} (open map)
            </a>
          ) : (
            <p className="muted">Location</p>
          )}
          <Caption text={m.text} />
        </div>
      );
    }
    default:
      return (
        <div className="media">
          {m.text ? <LinkedText text={m.text} /> : <p className="muted">[{m.type}]</p>}
          {file && <FileLink href={file} message={m} label="Attachment" />}
        </div>
      );
  }
}
