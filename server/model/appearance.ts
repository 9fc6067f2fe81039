/**
 * A widget's appearance and language (channels.appearance_json, migration
 * 011): read with the defaults filled in, and changed field by field from an
 * admin's partial object. Each refusal is a 400 naming the field and what it
 * takes; nothing is stored unless every field passes. Read by the same rules
 * it is written by; below the domain and the presenters, which both read it.
 */
import type { Channel } from '../db/schema.js';
import { invalid } from '../errors/AppError.js';
import { parseJson } from '../lib/json.js';
import { DEFAULT_APPEARANCE, WIDGET_LANGUAGES, type WidgetAppearance } from '../../protocol/widget.js';

/** The longest text of each kind (characters). */
export const APPEARANCE_TEXT_MAX = { title: 60, greeting: 500, away_text: 200, offline_text: 500, launcher_text: 40 } as const;
export const OFFSET_MAX = 200;

type TextField = keyof typeof APPEARANCE_TEXT_MAX;
const TEXTS = Object.keys(APPEARANCE_TEXT_MAX) as TextField[];

/** The stored appearance with every field present (what is missing or unreadable is the default). */
export function readAppearance(channel: Pick<Channel, 'appearance_json'>): WidgetAppearance {
  const stored = parseJson<unknown>(channel.appearance_json, {});
  const out = { ...DEFAULT_APPEARANCE };
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return out;
  try {
    return applyAppearance(out, stored as Record<string, unknown>);
  } catch {
    return out;
  }
}

/** `current` with the fields of `patch` changed (null clears a text or the logo); throws a 400 on the first bad field. */
export function applyAppearance(current: WidgetAppearance, patch: Record<string, unknown>): WidgetAppearance {
  const out = { ...current };
  for (const k of TEXTS) {
    if (!(k in patch)) continue;
    const v = patch[k];
    if (v === null) out[k] = null;
    else if (typeof v === 'string') {
      const text = v.trim();
      if (text.length > APPEARANCE_TEXT_MAX[k]) throw invalid(`appearance.${k} may have at most ${APPEARANCE_TEXT_MAX[k]} characters (got ${text.length}).`);
      out[k] = text || null;
    } else throw invalid(`appearance.${k} must be a text, or null for the default.`);
  }
  if ('position' in patch) {
    if (patch.position !== 'right' && patch.position !== 'left') throw invalid('appearance.position must be "right" or "left".');
    out.position = patch.position;
  }
  for (const k of ['offset_x', 'offset_y'] as const) {
    if (!(k in patch)) continue;
    const v = patch[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > OFFSET_MAX)
      throw invalid(`appearance.${k} must be a whole number of pixels from 0 to ${OFFSET_MAX}.`);
    out[k] = v;
  }
  if ('launcher' in patch) {
    if (patch.launcher !== 'label' && patch.launcher !== 'button')
      throw invalid('appearance.launcher must be "label" (a button with text) or "button" (a round button).');
    out.launcher = patch.launcher;
  }
  if ('logo' in patch) out.logo = cleanLogo(patch.logo);
  if ('language' in patch) {
    const v = patch.language;
    if (v !== 'auto' && !(WIDGET_LANGUAGES as readonly unknown[]).includes(v)) {
      throw invalid(`appearance.language must be "auto" (the browser's languages) or one of ${WIDGET_LANGUAGES.join(', ')}.`);
    }
    out.language = v as WidgetAppearance['language'];
  }
  return out;
}

function cleanLogo(v: unknown): string | null {
  if (v === null || v === '') return null;
  if (typeof v === 'string' && v.length <= 500) {
    try {
      const url = new URL(v.trim());
      if (url.protocol === 'https:') return url.href;
    } catch {
      // refused below
    }
  }
  throw invalid('appearance.logo must be an https:// address of a picture (at most 500 characters), or null for none.');
}
