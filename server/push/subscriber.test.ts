/**
 * The push subscriber's `wants` never throws on a row whose payload is not
 * what its name promises (an older version's, a test's): the relay counts a
 * throw as the subscriber failing and holds the batch back while it retries.
 */
import { describe, expect, it } from 'vitest';
import type { RelayedEvent } from '../events/catalogue.js';
import { pushNotifications } from './subscriber.js';

const event = (type: string, data: unknown) =>
  ({ id: 1, account_id: 1, chat_id: 1, channel_id: null, seq: 1, created_at: 0, type, data }) as unknown as RelayedEvent;

describe('pushNotifications.wants', () => {
  it('answers false, without throwing, for payloads that lack what their type promises', () => {
    for (const type of ['chat.created', 'message.created', 'call.updated', 'chat.updated']) {
      expect(pushNotifications.wants!(event(type, { n: 1 }))).toBe(false);
    }
  });

  it('wants a visitor message, not an agent one', () => {
    expect(pushNotifications.wants!(event('message.created', { message: { author: 'visitor', chat_id: 1 } }))).toBe(true);
    expect(pushNotifications.wants!(event('message.created', { message: { author: 'agent', chat_id: 1 } }))).toBe(false);
  });
});
