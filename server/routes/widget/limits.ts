/**
 * The widget API's rate limits (server/routes/rateLimit.ts counts them), per
 * visitor and per address.
 */
import type { Limit } from '../rateLimit.js';

const MINUTE = 60_000;
const slow = (what: string): string => `You are ${what} too quickly; please wait a moment and try again.`;

/** Generous enough for a busy office behind one address and for scripted pages; tight enough to stop floods. */
export const LIMITS = {
  sessionPerIp: { name: 'session-ip', capacity: 600, windowMs: MINUTE, message: slow('opening the chat') },
  messagePerVisitor: { name: 'message-v', capacity: 60, windowMs: MINUTE, message: slow('sending messages') },
  messagePerIp: { name: 'message-ip', capacity: 600, windowMs: MINUTE, message: slow('sending messages') },
  uploadPerVisitor: { name: 'upload-v', capacity: 10, windowMs: MINUTE, message: slow('sending files') },
  uploadPerIp: { name: 'upload-ip', capacity: 30, windowMs: MINUTE, message: slow('sending files') },
  offlinePerVisitor: { name: 'offline-v', capacity: 5, windowMs: 10 * MINUTE, message: slow('sending offline messages') },
  offlinePerIp: { name: 'offline-ip', capacity: 20, windowMs: 10 * MINUTE, message: slow('sending offline messages') },
  callbackPerVisitor: { name: 'callback-v', capacity: 5, windowMs: 10 * MINUTE, message: slow('asking for calls') },
  callbackPerIp: { name: 'callback-ip', capacity: 20, windowMs: 10 * MINUTE, message: slow('asking for calls') },
  transcriptPerVisitor: { name: 'transcript-v', capacity: 5, windowMs: 10 * MINUTE, message: slow('asking for the conversation by e-mail') },
  transcriptPerIp: { name: 'transcript-ip', capacity: 20, windowMs: 10 * MINUTE, message: slow('asking for the conversation by e-mail') },
  transcriptConfirmPerIp: { name: 'transcript-confirm-ip', capacity: 30, windowMs: 10 * MINUTE, message: slow('opening confirmation links') },
  actionPerVisitor: { name: 'action-v', capacity: 300, windowMs: MINUTE, message: slow('making changes') },
} as const satisfies Record<string, Limit>;
