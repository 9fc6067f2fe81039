/**
 * A search excerpt with its matches marked. The server cuts the excerpt into
 * plain-text parts; each is rendered as React text (inside <mark> when it
 * matches), never as HTML, so a visitor's message cannot inject markup.
 */
import type { ChatMatchDto } from '../../../../protocol/agent';

export function Highlighted({ parts }: { parts: ChatMatchDto['parts'] }) {
  return <span className="excerpt">{parts.map((part, i) => (part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}</span>;
}
