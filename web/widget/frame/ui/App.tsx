/**
 * The frame's root: the chat window, and the size it asks the loader for (0×0
 * while closed: the loader shows the launcher on the page). Run alone (no
 * loader), the frame shows its own launcher when the window is closed.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { textColorOnWhite, textOn } from '../../../../protocol/contrast';
import type { Widget } from '../widget';
import { ChatWindow } from './ChatWindow';
import { Launcher } from './Launcher';
import { useWidget } from './useWidget';

/** The open window's box, its 16 px margins included (the loader shrinks it to small viewports). */
export const OPEN_SIZE = { width: 380, height: 640 };
const MARGIN = 16;

export function App({ w }: { w: Widget }) {
  const s = useWidget(w);
  const launcher = useRef<HTMLButtonElement>(null);
  const posted = useRef('');
  useLayoutEffect(() => {
    const b = launcher.current;
    const size =
      s.phase === 'ready' && s.open
        ? { open: true, ...OPEN_SIZE }
        : { open: false, width: b ? b.offsetWidth + 2 * MARGIN : 0, height: b ? b.offsetHeight + 2 * MARGIN : 0 };
    const key = JSON.stringify(size);
    if (key !== posted.current) {
      posted.current = key;
      w.bridge.post('size', size);
    }
  });
  if (s.phase !== 'ready') return null;
  // The admin's colour, with the text colour readable on it and a readable shade of it for text on white.
  const colors = s.color ? { '--c': s.color, '--on-c': textOn(s.color), '--c-text': textColorOnWhite(s.color) } : undefined;
  return (
    <div class={s.full || !w.bridge.embedded ? 'root full' : 'root'} style={colors}>
      {s.open ? <ChatWindow w={w} s={s} /> : !w.bridge.embedded && <Launcher w={w} s={s} btn={launcher} />}
    </div>
  );
}
