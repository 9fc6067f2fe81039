import { describe, expect, it } from 'vitest';
import type { Channel } from '../../db/schema.js';
import { CHANNEL_TTL_MS, ChannelCache } from './channelCache.js';

const channel = (publicId: string, secret = 's'): Channel => ({
  id: 1,
  account_id: 1,
  type: 'chat_api',
  name: publicId,
  public_id: publicId,
  secret,
  webhook_url: 'https://customer.example.com/hook',
  chunked: 0,
  options_json: '{}',
  appearance_json: '{}',
  created_at: 0,
  updated_at: 0,
});

/** A cache over a table the test edits; each load is recorded, and held until released when `hold` is set. */
function make(o?: { ttlMs: number; maxEntries: number }) {
  const table = new Map<string, Channel>();
  const loads: string[] = [];
  let held: Array<() => void> | null = null;
  const cache = new ChannelCache(async (publicId) => {
    loads.push(publicId);
    const row = table.get(publicId); // read when the load starts, as a query would
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    return row;
  }, o);
  return {
    table,
    loads,
    cache,
    hold: () => (held = []),
    /** The held loads end, the newest first (a stale load then ends last). */
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const resolve of waiting.reverse()) resolve();
    },
  };
}

describe('ChannelCache', () => {
  it('serves a channel from memory within the TTL and loads it again after', async () => {
    const { table, loads, cache } = make();
    table.set('a', channel('a', 'old'));
    expect((await cache.get('a', 1000))?.secret).toBe('old');
    table.set('a', channel('a', 'new'));
    expect((await cache.get('a', 1000 + CHANNEL_TTL_MS - 1))?.secret).toBe('old');
    expect(loads).toEqual(['a']);
    expect((await cache.get('a', 1000 + CHANNEL_TTL_MS))?.secret).toBe('new');
    expect(loads).toEqual(['a', 'a']);
  });

  it('loads again when the clock went back', async () => {
    const { table, loads, cache } = make();
    table.set('a', channel('a'));
    await cache.get('a', 5000);
    await cache.get('a', 4000);
    expect(loads).toEqual(['a', 'a']);
  });

  it('keeps no miss: a channel created after one is found at once', async () => {
    const { table, loads, cache } = make();
    expect(await cache.get('a', 0)).toBeUndefined();
    table.set('a', channel('a'));
    expect(await cache.get('a', 1)).toBeDefined();
    expect(loads).toEqual(['a', 'a']);
  });

  it('forgets an expired channel that is gone', async () => {
    const { table, cache } = make();
    table.set('a', channel('a'));
    await cache.get('a', 0);
    table.delete('a');
    expect(await cache.get('a', CHANNEL_TTL_MS)).toBeUndefined();
    expect(await cache.get('a', 0)).toBeUndefined(); // not the old entry, though 0 is within its TTL
  });

  it('evicts: the next get reads the store', async () => {
    const { table, cache } = make();
    table.set('a', channel('a', 'old'));
    await cache.get('a', 0);
    table.set('a', channel('a', 'new'));
    cache.evict('a');
    expect((await cache.get('a', 1))?.secret).toBe('new');
  });

  it('shares one load among concurrent misses of one id', async () => {
    const { table, loads, cache, hold, release } = make();
    table.set('a', channel('a'));
    hold();
    const got = [cache.get('a', 0), cache.get('a', 0), cache.get('b', 0)];
    release();
    expect((await Promise.all(got)).map((c) => c?.public_id)).toEqual(['a', 'a', undefined]);
    expect(loads).toEqual(['a', 'b']);
  });

  it('does not keep a load an eviction overtook (its row may predate the change)', async () => {
    const { table, loads, cache, hold, release } = make();
    table.set('a', channel('a', 'old'));
    hold();
    const before = cache.get('a', 0);
    table.set('a', channel('a', 'new')); // committed, then evicted, while the load is in flight
    cache.evict('a');
    const after = cache.get('a', 0); // a request after the eviction does not join the stale load
    release();
    expect((await before)?.secret).toBe('old');
    expect((await after)?.secret).toBe('new');
    expect((await cache.get('a', 1))?.secret).toBe('new');
    expect(loads).toEqual(['a', 'a']);
  });

  it('fails the callers of a failed load and keeps nothing', async () => {
    let fail = true;
    const cache = new ChannelCache(async (id) => {
      if (fail) throw new Error('store down');
      return channel(id);
    });
    const settled = await Promise.allSettled([cache.get('a', 0), cache.get('a', 0)]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await cache.get('a', 0)).toBeDefined();
  });

  it('drops the oldest entry beyond its size', async () => {
    const { table, loads, cache } = make({ ttlMs: CHANNEL_TTL_MS, maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) table.set(id, channel(id));
    for (const id of ['a', 'b', 'c']) await cache.get(id, 0);
    loads.length = 0;
    for (const id of ['b', 'c', 'a']) await cache.get(id, 0);
    expect(loads).toEqual(['a']);
  });

  it('forgets a channel by its id when its channel.changed arrives, and follows each account once', async () => {
    const watched: number[] = [];
    const table = new Map<string, Channel>();
    const loads: string[] = [];
    const cache = new ChannelCache(
      async (publicId) => {
        loads.push(publicId);
        return table.get(publicId);
      },
      undefined,
      (accountId) => watched.push(accountId),
    );
    table.set('a', { ...channel('a', 'old'), id: 1, account_id: 7 });
    table.set('b', { ...channel('b'), id: 2, account_id: 7 });
    table.set('c', { ...channel('c'), id: 3, account_id: 8 });
    for (const id of ['a', 'b', 'c']) await cache.get(id, 0);
    expect(watched).toEqual([7, 8]);
    table.set('a', { ...channel('a', 'new'), id: 1, account_id: 7 });
    cache.evictChannel(1);
    cache.evictChannel(99); // a channel not kept here: nothing to do
    expect((await cache.get('a', 0))?.secret).toBe('new');
    await cache.get('b', 0);
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
    cache.clear();
    await cache.get('b', 0);
    expect(loads).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(watched).toEqual([7, 8]);
  });

  it('does not keep a load in flight when a channel change arrives during it', async () => {
    const { table, loads, cache, hold, release } = make();
    table.set('a', { ...channel('a', 'old'), id: 1 });
    hold();
    const stale = cache.get('a', 0);
    table.set('a', { ...channel('a', 'new'), id: 1 });
    cache.evictChannel(1);
    release();
    expect((await stale)?.secret).toBe('old'); // its caller is answered with what it read…
    expect((await cache.get('a', 0))?.secret).toBe('new'); // …but it was not kept
    expect(loads).toEqual(['a', 'a']);
  });
});
