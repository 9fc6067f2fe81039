/** Subscribes a view to the widget's state: it re-renders on every change. */
import { useEffect, useState } from 'preact/hooks';
import type { UiState } from '../state';
import type { Widget } from '../widget';

export function useWidget(w: Widget): UiState {
  const [, tick] = useState(0);
  useEffect(() => w.subscribe(() => tick((n) => n + 1)), [w]);
  return w.state;
}

/** An http(s) URL, or undefined: nothing else reaches an href or a src. */
export const safeUrl = (u: string | null | undefined): string | undefined => (u && /^https?:\/\//i.test(u) ? u : undefined);

export function fileSize(bytes: number | undefined): string {
  if (!bytes) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
