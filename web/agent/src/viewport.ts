/**
 * The height the app may use on a phone: the visual viewport's, which
 * shrinks when the on-screen keyboard opens (100dvh does not), kept in the
 * CSS variable --app-height so the conversation and its composer stay above
 * the keyboard (styles.css, phone width).
 */
export function trackViewport(): void {
  const vv = window.visualViewport;
  if (!vv) return;
  const apply = () => {
    document.documentElement.style.setProperty('--app-height', `${Math.round(vv.height)}px`);
    // The page must not stay scrolled under the keyboard: the app already fits the visible part.
    if (vv.offsetTop > 0 && document.documentElement.scrollHeight <= vv.height + 1) window.scrollTo(0, 0);
  };
  vv.addEventListener('resize', apply);
  vv.addEventListener('scroll', apply);
  apply();
}
