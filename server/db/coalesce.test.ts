import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalesce.js';

describe('Coalescer', () => {
  const make = (fail = false) => {
    const loads: string[][] = [];
    const c = new Coalescer<string, string>(async (keys) => {
      loads.push(keys);
      if (fail) throw new Error('store down');
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `row ${k}`]));
    });
    return { c, loads };
  };

  it('reads the keys asked for in one turn with one load, each caller getting its own row', async () => {
    const { c, loads } = make();
    const got = await Promise.all(['a', 'b', 'a', 'missing'].map((k) => c.get(k)));
    expect(got).toEqual(['row a', 'row b', 'row a', undefined]);
    expect(loads).toEqual([['a', 'b', 'missing']]);
  });

  it('loads again for keys asked for after a load started', async () => {
    const { c, loads } = make();
    expect(await c.get('a')).toBe('row a');
    expect(await c.get('a')).toBe('row a');
    expect(loads).toEqual([['a'], ['a']]);
  });

  it('fails every caller of a failed load, and the next load runs', async () => {
    const { c } = make(true);
    const settled = await Promise.allSettled([c.get('a'), c.get('b')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    await expect(c.get('c')).rejects.toThrow('store down');
  });
});
