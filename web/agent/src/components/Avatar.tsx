/**
 * A person's picture (a visitor's sender.photo, an https URL from outside):
 * while it cannot be loaded (a dead link, not an image, no https) the
 * person's initials stand in its place, never a broken image.
 */
import { useState } from 'react';
import { t } from '../i18n';

/** Up to two initials of a name ("Ann Lee" → "AL", "سارة" → "س"); "?" for none. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '')
    .trim()
    .split(/\s+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return '?';
  const first = (w: string) => (w.match(/[\p{L}\p{N}]/u)?.[0] ?? '').toUpperCase();
  return words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
}

export function Avatar({ src, name, size = 64 }: { src: string | null | undefined; name: string; size?: number }) {
  const usable = typeof src === 'string' && src.startsWith('https:') ? src : null;
  // Which picture failed: a new photo URL is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  if (usable && failed !== usable) {
    return <img className="avatar" src={usable} alt="" width={size} height={size} onError={() => setFailed(usable)} />;
  }
  return (
    <span
      className="avatar avatar-initials"
      role="img"
      aria-label={t('workspace.avatar.noPhoto', { name })}
      style={{ width: size, height: size, fontSize: size * 0.4 }}
    >
      <bdi aria-hidden="true">{initials(name)}</bdi>
    </span>
  );
}
