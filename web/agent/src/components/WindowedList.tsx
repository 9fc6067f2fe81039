/**
 * A list that renders only the rows in view (plus a margin), so 10,000 chats
 * scroll as smoothly as ten. Rows have one fixed height; the list keeps its
 * full height with padding above and below the rendered slice. It follows
 * whatever scrolls it (the page or a panel: scroll events are caught on the
 * way down) by where its own box is on screen, so it needs no scroll container
 * of its own.
 */
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

interface Props<T> {
  items: T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ReactNode;
  className?: string;
  label: string;
  /** Rows rendered beyond each edge of the screen. */
  overscan?: number;
}

/** The slice [start, end) of rows a list whose top is at `top` (px from the screen's top) shows on a screen `height` px tall. */
export function visibleSlice(count: number, rowHeight: number, top: number, height: number, overscan: number): [number, number] {
  const first = Math.floor(-top / rowHeight) - overscan;
  const last = Math.ceil((height - top) / rowHeight) + overscan;
  const start = Math.min(count, Math.max(0, first));
  return [start, Math.max(start, Math.min(count, last))];
}

export function WindowedList<T>({ items, rowHeight, renderRow, className, label, overscan = 8 }: Props<T>) {
  const ref = useRef<HTMLUListElement>(null);
  const [range, setRange] = useState<[number, number]>(() => visibleSlice(items.length, rowHeight, 0, window.innerHeight, overscan));

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = visibleSlice(items.length, rowHeight, el.getBoundingClientRect().top, window.innerHeight, overscan);
    setRange((r) => (r[0] === next[0] && r[1] === next[1] ? r : next));
  }, [items.length, rowHeight, overscan]);

  useLayoutEffect(() => {
    measure();
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    window.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
    };
  }, [measure]);

  const [start, end] = range;
  return (
    <ul
      ref={ref}
      className={className}
      aria-label={label}
      style={{ paddingTop: start * rowHeight, paddingBottom: Math.max(0, items.length - end) * rowHeight }}
    >
      {items.slice(start, end).map((item, i) => renderRow(item, start + i))}
    </ul>
  );
}
