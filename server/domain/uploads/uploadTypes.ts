/**
 * What a visitor may upload, by Content-Type: images, audio, video, PDF,
 * office documents, plain text/CSV and zip. Each type has one extension (the
 * stored name ends with it, so serving needs no database) and the message
 * type it becomes. Never HTML, SVG or scripts: nothing a browser would run.
 */
import type { UploadResponse } from '../../../protocol/widget.js';

export interface UploadType {
  ext: string;
  kind: UploadResponse['type'];
  /** Served as. */
  mime: string;
  /** Leading bytes the content must start with, when the format has them. */
  magic?: (head: Buffer) => boolean;
}

const starts =
  (...prefixes: string[]) =>
  (head: Buffer): boolean =>
    prefixes.some((p) => head.subarray(0, p.length).equals(Buffer.from(p, 'latin1')));
const webp = (head: Buffer): boolean => starts('RIFF')(head) && head.subarray(8, 12).toString('latin1') === 'WEBP';
const zipMagic = starts('PK\x03\x04', 'PK\x05\x06');
const ole = starts('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1');

const T = (ext: string, kind: UploadType['kind'], mime: string, magic?: UploadType['magic']): UploadType => ({ ext, kind, mime, magic });

export const UPLOAD_TYPES: Readonly<Record<string, UploadType>> = {
  'image/png': T('png', 'photo', 'image/png', starts('\x89PNG\r\n\x1a\n')),
  'image/jpeg': T('jpg', 'photo', 'image/jpeg', starts('\xff\xd8\xff')),
  'image/gif': T('gif', 'photo', 'image/gif', starts('GIF87a', 'GIF89a')),
  'image/webp': T('webp', 'photo', 'image/webp', webp),
  'image/bmp': T('bmp', 'photo', 'image/bmp', starts('BM')),
  'audio/mpeg': T('mp3', 'audio', 'audio/mpeg'),
  'audio/ogg': T('oga', 'audio', 'audio/ogg'),
  'audio/wav': T('wav', 'audio', 'audio/wav'),
  'audio/x-wav': T('wav', 'audio', 'audio/wav'),
  'audio/webm': T('weba', 'audio', 'audio/webm'),
  'audio/mp4': T('m4a', 'audio', 'audio/mp4'),
  'audio/x-m4a': T('m4a', 'audio', 'audio/mp4'),
  'audio/aac': T('aac', 'audio', 'audio/aac'),
  'video/mp4': T('mp4', 'video', 'video/mp4'),
  'video/webm': T('webm', 'video', 'video/webm'),
  'video/ogg': T('ogv', 'video', 'video/ogg'),
  'video/quicktime': T('mov', 'video', 'video/quicktime'),
  'application/pdf': T('pdf', 'document', 'application/pdf', starts('%PDF-')),
  'application/msword': T('doc', 'document', 'application/msword', ole),
  'application/vnd.ms-excel': T('xls', 'document', 'application/vnd.ms-excel', ole),
  'application/vnd.ms-powerpoint': T('ppt', 'document', 'application/vnd.ms-powerpoint', ole),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': T(
    'docx',
    'document',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    zipMagic,
  ),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': T(
    'xlsx',
    'document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    zipMagic,
  ),
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': T(
    'pptx',
    'document',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    zipMagic,
  ),
  'application/vnd.oasis.opendocument.text': T('odt', 'document', 'application/vnd.oasis.opendocument.text', zipMagic),
  'application/vnd.oasis.opendocument.spreadsheet': T('ods', 'document', 'application/vnd.oasis.opendocument.spreadsheet', zipMagic),
  'application/vnd.oasis.opendocument.presentation': T('odp', 'document', 'application/vnd.oasis.opendocument.presentation', zipMagic),
  'application/rtf': T('rtf', 'document', 'application/rtf', starts('{\\rtf')),
  'text/plain': T('txt', 'document', 'text/plain; charset=utf-8'),
  'text/csv': T('csv', 'document', 'text/csv; charset=utf-8'),
  'application/zip': T('zip', 'document', 'application/zip', zipMagic),
  'application/x-zip-compressed': T('zip', 'document', 'application/zip', zipMagic),
};

const BY_EXT = new Map(Object.values(UPLOAD_TYPES).map((t) => [t.ext, t]));

/** The upload type of a Content-Type header (parameters and case ignored), or null. */
export function uploadTypeOf(contentType: string | undefined): UploadType | null {
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return UPLOAD_TYPES[mime] ?? null;
}

/** The type of a stored file, from its extension. */
export function uploadTypeOfName(name: string): UploadType | null {
  return BY_EXT.get(name.slice(name.lastIndexOf('.') + 1)) ?? null;
}
