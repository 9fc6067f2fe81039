/**
 * A translated sentence with elements inside it (a link, a <strong>, a
 * timer): the catalogue's text keeps a `{name}` placeholder where each element
 * goes, and this puts the element there, so a sentence is never glued
 * together from fragments and each language orders its words its own way.
 */
import { Fragment, type ReactNode } from 'react';

export function Phrase({ text, parts }: { text: string; parts: Record<string, ReactNode> }) {
  // split with a capture group: the odd pieces are the placeholders' names.
  const pieces = text.split(/\{(\w+)\}/g);
  return <>{pieces.map((piece, i) => (i % 2 === 0 ? piece : piece in parts ? <Fragment key={i}>{parts[piece]}</Fragment> : `{${piece}}`))}</>;
}
