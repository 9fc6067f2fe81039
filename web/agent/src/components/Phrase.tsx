/**
 * A translated sentence with an element inside (a link, <strong>): the
 * catalogue text holds a `{name}` placeholder where the element goes, so each
 * language puts it where its word order wants it, and no sentence is pieced
 * together from fragments.
 */
import { Fragment, type ReactNode } from 'react';

export function Phrase({ text, parts }: { text: string; parts: Record<string, ReactNode> }) {
  const pieces = text.split(/\{(\w+)\}/);
  return <>{pieces.map((piece, i) => (i % 2 === 1 ? <Fragment key={i}>{piece in parts ? parts[piece] : `{${piece}}`}</Fragment> : piece))}</>;
}
