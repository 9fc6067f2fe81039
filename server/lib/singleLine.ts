/**
 * Names, e-mail addresses, phones, titles and other one-line fields a visitor
 * (or a chat channel's sender) gives are kept on one line: C0 and C1 control
 * characters (tabs, CR, LF, ESC …), DEL and the Unicode line and paragraph
 * separators (U+2028, U+2029) become a space, once, where the value is
 * stored. A name with a line break could otherwise start a line of its own in
 * a plain-text mail or a header ("Acme Support: confirm your card at …").
 * One regular-expression replace: it is on the chat channel's hot path.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `value` with every run of control characters and line breaks replaced by one space (not trimmed). */
export function singleLine(value: string): string {
  return value.replace(BREAKS, ' ');
}
