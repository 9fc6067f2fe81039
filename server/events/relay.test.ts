import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import type { StreamEvent } from '../realtime/hub.js';
import { recordRawEvent } from '../../test/helpers/realtime.js';
import { commit } from './outbox.js';
import { createRelay } from './relay.js';
import { RELAYED_THROUGH } from './relayClaim.js';
import type { Subscriber } from './subscribers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('outbox relay', () => {
  let t: TestApp;
  let published: StreamEvent[];
  let stop: () => void;

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  beforeEach(async () => {
    stop?.();
    published = [];
    stop = t.app.ctx.hub.subscribe(t.app.ctx.defaultAccountId, (e) => published.push(e));
    // Start each test with an empty outbox.
    await createRelay(t.app.ctx).drain();
    published = [];
  });
  afterAll(async () => {
    await t.close();
  });

  const record = (n: number) =>
    commit(t.app.ctx.db, t.app.ctx.signals, (tx) =>
      recordRawEvent(tx, { accountId: t.app.ctx.defaultAccountId, type: 'agent.updated', data: { n } }, Date.now()),
    );
  const unrelayed = async () => (await t.app.ctx.db.selectFrom('events').select('id').where('id', '>', RELAYED_THROUGH).execute()).length;
  const departments = async () => (await t.app.ctx.db.selectFrom('departments').select('name').execute()).map((d) => d.name);

  it('moves its cursor past the rows, runs subscribers in the same transaction, publishes in id order', async () => {
    const seen: number[] = [];
    const sub: Subscriber = {
      name: 'test',
      handles: ['agent.updated'],
      async handle(tx, event) {
        seen.push(event.id);
        await tx
          .insertInto('departments')
          .values({ account_id: event.account_id, name: `from-${event.id}`, created_at: 0 })
          .execute();
      },
    };
    const ids = [(await record(1)).id, (await record(2)).id, (await record(3)).id];
    expect(await createRelay(t.app.ctx, { subscribers: [sub], batchSize: 2 }).drain()).toBe(3);
    expect(seen).toEqual(ids);
    expect(await unrelayed()).toBe(0);
    expect(await departments()).toEqual(expect.arrayContaining(ids.map((id) => `from-${id}`)));
    expect(published.map((e) => e.id)).toEqual(ids);
    expect(published[0]).toMatchObject({ type: 'agent.updated', data: { n: 1 }, chat_id: null, channel_id: null, seq: null });
  });

  it('rolls the whole batch back when a subscriber fails, and relays it once the subscriber recovers', async () => {
    let fail = true;
    const sub: Subscriber = {
      name: 'flaky',
      handles: ['agent.updated'],
      async handle(tx, event) {
        await tx
          .insertInto('departments')
          .values({ account_id: event.account_id, name: `flaky-${event.id}`, created_at: 0 })
          .execute();
        if (fail) throw new Error('boom');
      },
    };
    const { id } = await record(1);
    const relay = createRelay(t.app.ctx, { subscribers: [sub] });
    await expect(relay.drain()).rejects.toThrow(/flaky failed on event/);
    expect(await unrelayed()).toBe(1);
    expect(await departments()).not.toContain(`flaky-${id}`);
    expect(published).toEqual([]);
    fail = false;
    expect(await relay.drain()).toBe(1);
    expect(await departments()).toContain(`flaky-${id}`);
    expect(published.map((e) => e.id)).toEqual([id]);
  });

  it('relays past a subscriber that keeps failing, without its writes', async () => {
    const broken: Subscriber = {
      name: 'broken',
      handles: ['agent.updated'],
      async handle(tx, event) {
        await tx
          .insertInto('departments')
          .values({ account_id: event.account_id, name: `broken-${event.id}`, created_at: 0 })
          .execute();
        throw new Error('always');
      },
    };
    const { id } = await record(1);
    const relay = createRelay(t.app.ctx, { subscribers: [broken] });
    for (let i = 1; i < 8; i++) await expect(relay.drain()).rejects.toThrow(/attempt/);
    expect(await relay.drain()).toBe(1);
    expect(await departments()).not.toContain(`broken-${id}`);
    expect(published.map((e) => e.id)).toEqual([id]);
  });

  it("runs a subscriber's finishBatch once per batch in its transaction, and relays past one that keeps failing, without its writes", async () => {
    const handled: number[][] = [];
    let current: number[] = [];
    const gathering: Subscriber = {
      name: 'gathering',
      handles: ['agent.updated'],
      handle(_tx, event) {
        current.push(event.id);
        return Promise.resolve();
      },
      async finishBatch(tx) {
        handled.push(current);
        const names = current.map((id) => `batch-${id}`);
        current = [];
        for (const name of names) await tx.insertInto('departments').values({ account_id: t.app.ctx.defaultAccountId, name, created_at: 0 }).execute();
      },
    };
    const a = await record(3);
    const b = await record(4);
    expect(await createRelay(t.app.ctx, { subscribers: [gathering] }).drain()).toBe(2);
    expect(handled).toEqual([[a.id, b.id]]);
    expect(await departments()).toEqual(expect.arrayContaining([`batch-${a.id}`, `batch-${b.id}`]));

    const broken: Subscriber = {
      ...gathering,
      name: 'broken-finish',
      async finishBatch(tx) {
        await gathering.finishBatch!(tx, t.app.ctx);
        throw new Error('always');
      },
    };
    const c = await record(5);
    const relay = createRelay(t.app.ctx, { subscribers: [broken] });
    for (let i = 1; i < 8; i++) await expect(relay.drain()).rejects.toThrow(/broken-finish failed on event \d+ \(attempt/);
    expect(await relay.drain()).toBe(1);
    expect(await departments()).not.toContain(`batch-${c.id}`);
    expect(published.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
  });

  it('counts a subscriber whose wants() throws (a payload not as its name promises) as failing, never stalls on it', async () => {
    const picky: Subscriber = {
      name: 'picky',
      handles: ['agent.updated'],
      wants: (event) => {
        if (event.type === 'agent.updated' && !('agent' in event.data)) throw new TypeError('no agent in the payload');
        return true;
      },
      async handle() {},
    };
    const { id } = await record(2);
    const relay = createRelay(t.app.ctx, { subscribers: [picky] });
    for (let i = 1; i < 8; i++) await expect(relay.drain()).rejects.toThrow(/picky failed .* no agent/);
    expect(await relay.drain()).toBe(1);
    expect(published.map((e) => e.id)).toEqual([id]);
  });

  it('wakes at once on commit and stops after finishing its batch', async () => {
    const relay = createRelay(t.app.ctx, { pollMs: 60_000 });
    relay.start();
    const { id } = await record(1);
    const deadline = Date.now() + 2000;
    while (published.length === 0 && Date.now() < deadline) await sleep(10);
    expect(published.map((e) => e.id)).toEqual([id]);
    await relay.stop();
    await record(2);
    await sleep(100);
    expect(published).toHaveLength(1);
  });

  it('shares the work between relays without relaying a row twice or out of order', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 40; n++) ids.push((await record(n)).id);
    const relays = [createRelay(t.app.ctx, { batchSize: 3 }), createRelay(t.app.ctx, { batchSize: 3 })];
    const counts = await Promise.all(relays.map((r) => r.drain()));
    expect(counts[0] + counts[1]).toBe(40);
    expect(published.map((e) => e.id)).toEqual(ids);
  });

  describe.skipIf(testDialect() !== 'postgres')('PostgreSQL ids committing out of order', () => {
    /** Opens a transaction that records an event and stays open until released. */
    async function holdEvent(n: number, outcome: 'commit' | 'rollback') {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let recorded!: (id: number) => void;
      const idPromise = new Promise<number>((r) => (recorded = r));
      const done = t.app.ctx.db
        .transaction()
        .execute(async (tx) => {
          const e = await recordRawEvent(tx, { accountId: t.app.ctx.defaultAccountId, type: 'agent.updated', data: { n } }, Date.now());
          recorded(e.id);
          await gate;
          if (outcome === 'rollback') throw new Error('rolled back on purpose');
        })
        .catch(() => undefined);
      return { id: await idPromise, release, done };
    }

    it('waits for an earlier id still in flight instead of overtaking it', async () => {
      const held = await holdEvent(1, 'commit');
      const later = await record(2);
      expect(later.id).toBeGreaterThan(held.id);
      const drained = createRelay(t.app.ctx).drain();
      await sleep(300);
      expect(published).toEqual([]);
      held.release();
      await held.done;
      await drained;
      expect(published.map((e) => e.id)).toEqual([held.id, later.id]);
    });

    it('steps over an id in flight too long, then relays it late (once) when its transaction commits', async () => {
      const held = await holdEvent(1, 'commit');
      const later = await record(2);
      const relay = createRelay(t.app.ctx, { maxGapWaitMs: 200, probeWaitMs: 50 });
      await relay.drain();
      expect(published.map((e) => e.id)).toEqual([later.id]);
      held.release();
      await held.done;
      expect(await relay.drain()).toBe(1);
      expect(published.map((e) => e.id)).toEqual([later.id, held.id]);
      expect(await relay.drain()).toBe(0);
      expect(await createRelay(t.app.ctx).drain()).toBe(0);
      expect(published).toHaveLength(2);
    });

    it('relays a late id again when the batch that relayed it rolled back', async () => {
      const held = await holdEvent(1, 'commit');
      const later = await record(2);
      let fail = true;
      const flaky: Subscriber = {
        name: 'flaky',
        handles: ['agent.updated'],
        async handle(_tx, event) {
          if (fail && event.id === held.id) throw new Error('boom');
        },
      };
      const relay = createRelay(t.app.ctx, { subscribers: [flaky], maxGapWaitMs: 200, probeWaitMs: 50 });
      await relay.drain();
      expect(published.map((e) => e.id)).toEqual([later.id]);
      held.release();
      await held.done;
      await expect(relay.drain()).rejects.toThrow(/flaky failed on event/);
      fail = false;
      expect(await relay.drain()).toBe(1);
      expect(published.map((e) => e.id)).toEqual([later.id, held.id]);
    });

    it('steps over the id of a transaction that rolled back', async () => {
      const held = await holdEvent(1, 'rollback');
      const later = await record(2);
      const drained = createRelay(t.app.ctx).drain();
      await sleep(200);
      held.release();
      await held.done;
      await drained;
      expect(published.map((e) => e.id)).toEqual([later.id]);
      // The probe left nothing behind.
      expect(await t.app.ctx.db.selectFrom('events').select('id').where('id', '=', held.id).executeTakeFirst()).toBeUndefined();
    });
  });
});
