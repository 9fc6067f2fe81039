/**
 * A message's text as the agent reads it: its http(s) and mailto URLs as links
 * (protocol/links.ts: nothing else ever becomes a link) opening in a new tab
 * without the app as referrer or opener, built as elements, never as HTML; the
 * paragraph takes the text's own direction (dir="auto"), so an Arabic message
 * keeps its punctuation at its end.
 */
import { splitLinks } from '../../../../protocol/links';

export function LinkedText({ text, className = 'text' }: { text: string; className?: string }) {
  return (
    <p className={className} dir="auto">
      {splitLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
