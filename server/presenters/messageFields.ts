/**
 * A message's content fields, the same in every audience's shape: the agent
 * API and stream (message.ts), the visitor's frames (widget.ts) and the chat
 * channel's outbound body (chatChannel.ts). Each copies them from here and
 * adds what its audience sees besides (ids, author, agent, extra fields…).
 * A field that is null (a stored row) or missing (an agent DTO) is left out.
 */
export interface MessageContent {
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  thumb?: string;
  latitude?: number;
  longitude?: number;
}

/** A stored row (null for a missing field) or a shape already made (undefined). */
export type MessageContentSource = { [K in keyof MessageContent]?: MessageContent[K] | null };

/** Copies the content fields that are set onto `out`, in the one order every shape uses. */
export function copyMessageContent<T extends MessageContent>(out: T, m: MessageContentSource): T {
  if (m.text != null) out.text = m.text;
  if (m.file != null) out.file = m.file;
  if (m.file_name != null) out.file_name = m.file_name;
  if (m.file_size != null) out.file_size = m.file_size;
  if (m.thumb != null) out.thumb = m.thumb;
  if (m.latitude != null) out.latitude = m.latitude;
  if (m.longitude != null) out.longitude = m.longitude;
  return out;
}
