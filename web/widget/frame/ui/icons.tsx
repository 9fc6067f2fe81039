/** The few icons of the widget, inline SVG (decorative: buttons carry their own labels). */
const icon = (d: string) => () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    <path d={d} fill="currentColor" />
  </svg>
);

export const ChatIcon = icon('M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z');
export const SendIcon = icon('M3 20.5 22 12 3 3.5v6.6L16 12 3 13.9z');
export const ClipIcon = icon(
  'M16.5 6.5 8.9 14.1a1.5 1.5 0 1 0 2.1 2.1l7.1-7.1a3.5 3.5 0 0 0-5-5L5.6 11.6a5.5 5.5 0 0 0 7.8 7.8l6.4-6.4-1.4-1.4-6.4 6.4a3.5 3.5 0 0 1-5-5l7.5-7.5a1.5 1.5 0 0 1 2.1 2.1l-7.1 7.1-.7-.7 7.6-7.6z',
);
export const PhoneIcon = icon(
  'M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.6 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1 11.4 11.4 0 0 0 .6 3.6 1 1 0 0 1-.25 1z',
);
export const PersonIcon = icon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-3.3 0-8 1.7-8 5v1h16v-1c0-3.3-4.7-5-8-5z');
export const MinimizeIcon = icon('M5 11h14v2H5z');
export const ThumbUpIcon = icon(
  'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.5-1.1L13.2 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z',
);
export const ThumbDownIcon = icon(
  'M22 3h-4v12h4V3zM2 14a2 2 0 0 0 2 2h6.3l-1 4.6v.3c0 .4.2.8.5 1.1l1 1 6.6-6.6A2 2 0 0 0 18 15V5a2 2 0 0 0-2-2H7a2 2 0 0 0-1.8 1.2l-3 7.1c-.1.2-.2.5-.2.7v2z',
);
