/** What the Profile page accepts as a photo file, checked before sending it (the server checks again: POST /api/v1/me/photo). */
import { formatNumber, t } from './i18n';

export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** Why a chosen file cannot be a photo, in the reader's words; null when it can. */
export function photoProblem(file: { type: string; size: number }): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return t('workspace.photo.type');
  if (file.size > PHOTO_MAX_BYTES) {
    const size = formatNumber(file.size / 1024 / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return t('workspace.photo.size', { size });
  }
  return null;
}
