/**
 * JSON.parse for what the frame reads from the server (HTTP answers, socket
 * frames): keys `__proto__` and `constructor` are dropped at every depth, as
 * the server drops them from every body it reads (server/lib/jsonData.ts), so
 * text that visitors or agents wrote can never become structure in the frame.
 */
const reserved = (key: string, value: unknown): unknown => (key === '__proto__' || key === 'constructor' ? undefined : value);

export const parseData = (text: string): unknown => JSON.parse(text, reserved);
