/** What the Profile page accepts as a photo file, checked before sending it (the server checks again: POST /api/v1/me/photo). */
export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const PHOTO_MAX_BYTES = 2 * 1024 * 1024;

/** Why a chosen file cannot be a photo, in the reader's words; null when it can. */
export function photoProblem(file: { type: string; size: number }): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return 'Choose a PNG, JPEG, GIF or WebP image.';
  if (file.size > PHOTO_MAX_BYTES) return `That image is ${(file.size / 1024 / 1024).toFixed(1)} MB; photos of up to 2 MB can be used.`;
  return null;
}
