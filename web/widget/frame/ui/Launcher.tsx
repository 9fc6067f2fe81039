/** The closed widget when the frame runs alone (embedded, the loader draws the launcher on the page): a labelled button with the unread count. */
import type { Ref } from 'preact';
import { useEffect } from 'preact/hooks';
import { launcherLabel } from '../core';
import type { UiState } from '../state';
import type { Widget } from '../widget';
import { ChatIcon } from './icons';
import { t } from '../i18n';

export function Launcher({ w, s, btn }: { w: Widget; s: UiState; btn: Ref<HTMLButtonElement> }) {
  const label = launcherLabel(s);
  useEffect(() => {
    // Back from the window the visitor minimized: the focus returns here.
    if (!w.focusRequested) return;
    w.focusRequested = false;
    if (btn && typeof btn === 'object') btn.current?.focus();
  }, [w, btn]);
  return (
    <button
      ref={btn}
      type="button"
      class="launcher"
      onClick={() => {
        w.focusRequested = true;
        w.openWindow();
      }}
      aria-label={s.unread ? t('unread', { label, n: s.unread }) : label}
    >
      <ChatIcon />
      <span>{label}</span>
      {s.unread > 0 && (
        <span class="badge" aria-hidden="true">
          {s.unread}
        </span>
      )}
    </button>
  );
}
