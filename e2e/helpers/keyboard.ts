/**
 * Keyboard-only driving for the accessibility tests: Tab (or Shift+Tab) until
 * a given element has the focus, checking at every stop that the focused
 * element shows it (a visible outline or ring from :focus-visible). The
 * focused element is looked up through open shadow roots (the widget's
 * launcher lives in one).
 */
import type { Frame, Locator, Page } from 'playwright-core';

export interface FocusStop {
  /** tag#id.class, and its accessible name when it has an aria-label or text. */
  what: string;
  visible: boolean;
}

/** What has the focus in `where` (through open shadow roots), and whether it shows it. */
export function focusStop(where: Page | Frame): Promise<FocusStop | null> {
  return where.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    // A frame holds the focus of its own document: the frame's check judges that.
    if (el.tagName === 'IFRAME') return { what: 'iframe', visible: true };
    const cs = getComputedStyle(el);
    const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1;
    const ring = cs.boxShadow !== 'none' && cs.boxShadow !== '';
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    return { what: `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls} "${name}"`, visible: el.matches(':focus-visible') && (outline || ring) };
  });
}

/** Whether `target` (a locator in `where`) is the focused element. */
async function focused(target: Locator): Promise<boolean> {
  return target
    .evaluate((el) => {
      let a: Element | null = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a === el;
    })
    .catch(() => false);
}

/**
 * Presses Tab (Shift+Tab with `back`) on `page` until `target` has the focus, at most `max` times.
 * Every element focused on the way must show its focus (`where`: the document the focus moves in, the page or a frame).
 * Returns the stops, for a failure's message.
 */
export async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number; where?: Page | Frame } = {}): Promise<FocusStop[]> {
  const where = opts.where ?? page;
  const stops: FocusStop[] = [];
  for (let i = 0; i < (opts.max ?? 60); i++) {
    if (await focused(target)) return stops;
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(where);
    if (stop) {
      stops.push(stop);
      if (!stop.visible) throw new Error(`focus not visible on ${stop.what} (after ${stops.map((s) => s.what).join(' → ')})`);
    }
  }
  if (await focused(target)) return stops;
  throw new Error(`Tab never reached the element; focus went ${stops.map((s) => s.what).join(' → ')}`);
}
