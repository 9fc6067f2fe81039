/**
 * Property tests of the chat channel's inbound endpoint: whatever the body,
 * never a 5xx; a 400 changes no stored row; a 200 stores at most one message.
 * FUZZ_RUNS raises the number of cases (bench/fuzz runs 100,000).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, type ChatChannel } from '../helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const senderId = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.constant(''),
  fc.constant(null),
  fc.double(),
  fc.boolean(),
  fc.object({ maxDepth: 1 }),
);
const messageType = fc.oneof(
  fc.constantFrom('text', 'typein', 'typeout', 'video', 'audio', 'voice', 'photo', 'sticker', 'document', 'location'),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant(null),
);
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.webUrl(),
  fc.constant('javascript:alert(1)'),
);
const message = fc.record(
  {
    type: messageType,
    text: fc.oneof(fc.string({ maxLength: 1200 }), anyValue),
    id: fc.oneof(fc.string({ maxLength: 10 }), fc.integer()),
    file: fc.oneof(fc.webUrl(), anyValue),
    file_name: anyValue,
    file_size: anyValue,
    thumb: anyValue,
    latitude: fc.oneof(fc.double(), anyValue),
    longitude: fc.oneof(fc.double(), anyValue),
    duration: anyValue,
  },
  { requiredKeys: [] },
);
const sender = fc.record(
  { id: senderId, name: anyValue, email: anyValue, phone: anyValue, photo: anyValue, url: anyValue, invite: anyValue },
  { requiredKeys: [] },
);
const structured = fc.record({ sender: fc.oneof(sender, anyValue), message: fc.oneof(message, anyValue) }, { requiredKeys: [] });
const nearlyValid = fc.record({
  sender: fc.record({ id: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.integer()), name: anyValue, photo: anyValue }, { requiredKeys: ['id'] }),
  message: fc.oneof(
    fc.record(
      { type: fc.constant('text'), text: fc.string({ minLength: 1, maxLength: 1500 }), id: fc.string({ maxLength: 4 }) },
      { requiredKeys: ['type', 'text'] },
    ),
    fc.record(
      { type: fc.constantFrom('photo', 'document', 'voice'), file: fc.webUrl(), file_size: anyValue, file_name: anyValue },
      { requiredKeys: ['type', 'file'] },
    ),
    fc.record({
      type: fc.constant('location'),
      latitude: fc.double({ min: -90, max: 90, noNaN: true }),
      longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    }),
    fc.record({ type: fc.constantFrom('typein', 'typeout') }),
  ),
});
const body = fc.oneof(
  nearlyValid.map((v) => JSON.stringify(v)),
  structured.map((v) => JSON.stringify(v)),
  fc.json(),
  fc.string({ maxLength: 200 }),
  structured.map((v) => JSON.stringify(v).slice(0, -1)),
);

describe('chat channel inbound, fuzzed', () => {
  let t: TestApp;
  let channel: ChatChannel;

  const snapshot = async () => {
    const db = t.app.ctx.db;
    const count = async (table: 'visitors' | 'chats' | 'messages' | 'events' | 'inbound_dedup') =>
      Number((await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return {
      visitors: await count('visitors'),
      chats: await count('chats'),
      messages: await count('messages'),
      events: await count('events'),
      dedup: await count('inbound_dedup'),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`never answers 5xx, and a refusal stores nothing (${RUNS} cases)`, async () => {
    const outcomes: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('application/json', 'text/plain', undefined), async (payload, contentType) => {
        const before = await snapshot();
        const res = await t.app.inject({ method: 'POST', url: channel.path, payload, headers: contentType ? { 'content-type': contentType } : {} });
        expect(res.statusCode).toBeLessThan(500);
        outcomes[res.statusCode] = (outcomes[res.statusCode] ?? 0) + 1;
        expect([200, 400]).toContain(res.statusCode);
        const after = await snapshot();
        if (res.statusCode === 400) {
          expect(res.json().error.code).toEqual(expect.any(Number));
          expect(after).toEqual(before);
        } else {
          expect(res.json()).toEqual({ result: 'ok' });
          expect(after.messages - before.messages).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: RUNS },
    );
    // The generators must reach both sides of the rules.
    expect(outcomes[200]).toBeGreaterThan(RUNS / 20);
    expect(outcomes[400]).toBeGreaterThan(RUNS / 4);
  });
});
