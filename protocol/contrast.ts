/**
 * Colour contrast by WCAG 2.1 (success criteria 1.4.3 and 1.4.11): the
 * contrast ratio of two colours from their relative luminance, and the
 * readable colours Parley derives from a widget colour an admin picks. The
 * widget draws its text on that colour in `textOn(colour)` (white, or dark
 * when white fails 4.5:1) and uses `textColorOnWhite(colour)` where the
 * colour itself is text or an icon on white (links, the send button); the
 * admin app's appearance form warns when the picked colour fails
 * (`contrastProblem`). Colours are `#rgb`, `#rrggbb` (an alpha part is
 * ignored) or `rgb(r, g, b)`; anything else is not judged (null).
 */

export type Rgb = [number, number, number];

/** The minimum contrast ratio of normal text (AA). */
export const MIN_TEXT_CONTRAST = 4.5;

/** The dark text colour the widget and the app use on light backgrounds. */
export const DARK_TEXT = '#1f2328';
export const WHITE = '#ffffff';

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or `rgb()/rgba()` as 0-255 channels; null for anything else. */
export function parseColor(color: string): Rgb | null {
  const c = color.trim().toLowerCase();
  let m = /^#([0-9a-f]{3,4})$/.exec(c);
  if (m) return [0, 1, 2].map((i) => parseInt(m![1][i] + m![1][i], 16)) as Rgb;
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/.exec(c);
  if (m) return [0, 2, 4].map((i) => parseInt(m![1].slice(i, i + 2), 16)) as Rgb;
  m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+%?\s*)?\)$/.exec(c);
  if (m) {
    const rgb = [Number(m[1]), Number(m[2]), Number(m[3])];
    return rgb.every((v) => v <= 255) ? (rgb as Rgb) : null;
  }
  return null;
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of two colours, 1 to 21; null when either is not a colour parseColor reads. */
export function contrastRatio(a: string, b: string): number | null {
  const x = parseColor(a);
  const y = parseColor(b);
  if (!x || !y) return null;
  const [hi, lo] = [relativeLuminance(x), relativeLuminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

/** The text colour to draw on `background`: white while it reaches 4.5:1, else the dark text colour (or whichever contrasts more). */
export function textOn(background: string): string {
  const white = contrastRatio(WHITE, background);
  if (white === null || white >= MIN_TEXT_CONTRAST) return WHITE;
  const dark = contrastRatio(DARK_TEXT, background) ?? 0;
  return dark > white ? DARK_TEXT : WHITE;
}

const hex = (rgb: Rgb): string => '#' + rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');

/** `color` as text on white: itself when it reaches 4.5:1 there, else the same hue darkened until it does. */
export function textColorOnWhite(color: string): string {
  const rgb = parseColor(color);
  if (!rgb) return color;
  for (let k = 1; k >= 0; k -= 0.02) {
    const c = hex(rgb.map((v) => v * k) as Rgb);
    if ((contrastRatio(c, WHITE) ?? 0) >= MIN_TEXT_CONTRAST) return k === 1 ? color : c;
  }
  return DARK_TEXT;
}

export interface ContrastProblem {
  /** The ratio of white text on the colour (the launcher's, the header's). */
  ratio: number;
  /** The text colour the widget uses on it instead. */
  textColor: string;
}

/** Why a widget colour fails contrast with white text, or null when it does not (or is not a colour parseColor reads). */
export function contrastProblem(color: string): ContrastProblem | null {
  const ratio = contrastRatio(WHITE, color);
  if (ratio === null || ratio >= MIN_TEXT_CONTRAST) return null;
  return { ratio, textColor: textOn(color) };
}
