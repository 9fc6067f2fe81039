/** The text of a WebSocket message, whatever form `ws` delivered it in (Buffer, ArrayBuffer or fragments). */
import type { RawData } from 'ws';

export function wsText(raw: RawData): string {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw).toString('utf8');
}
