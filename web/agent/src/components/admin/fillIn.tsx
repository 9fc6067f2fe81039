/**
 * A translated sentence with elements inside (a <code>, a <strong>, a link):
 * the catalogue text keeps `{name}` placeholders for them, so each language
 * puts them where its word order wants, and this fills the elements in.
 * Callers give code they put in (a command, a URL) dir="ltr", so a right-to-left
 * sentence does not reorder its punctuation.
 */
import { Fragment, type ReactNode } from 'react';

export function fillIn(text: string, parts: Record<string, ReactNode>): ReactNode {
  return text.split(/(\{\w+\})/g).map((piece, i) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return <Fragment key={i}>{name !== undefined && name in parts ? parts[name] : piece}</Fragment>;
  });
}
