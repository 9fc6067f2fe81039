import { describe, expect, it } from 'vitest';
import { GroupCommit } from './groupCommit.js';

interface Job {
  key: string;
  n: number;
  fail?: boolean;
}

/** A writer whose "transactions" are recorded, take one timer tick each, and fail whole when a job says so. */
function recorder(maxBatch = 64) {
  const batches: number[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const writer = new GroupCommit<Job, string>({
    run: async (jobs) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      batches.push(jobs.map((j) => j.n));
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (jobs.some((j) => j.fail)) throw new Error(`batch with ${jobs.length} failed`);
      return jobs.map((j) => `done ${j.n}`);
    },
    maxBatch,
  });
  return { writer, batches, maxInFlight: () => maxInFlight };
}

describe('GroupCommit', () => {
  it('writes the jobs submitted in one turn in one transaction and answers each its own result', async () => {
    const { writer, batches } = recorder();
    const results = await Promise.all([1, 2, 3, 4].map((n) => writer.submit({ key: `k${n}`, n })));
    expect(results).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('queues the jobs that arrive while a transaction runs for the next one, in order', async () => {
    const { writer, batches } = recorder();
    const first = writer.submit({ key: 'a', n: 1 });
    await new Promise((r) => setTimeout(r, 1)); // the first transaction is running
    const later = [2, 3, 4].map((n) => writer.submit({ key: 'a', n }));
    expect(await Promise.all([first, ...later])).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('never puts more than maxBatch jobs in one transaction', async () => {
    const { writer, batches } = recorder(3);
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => writer.submit({ key: 'a', n })));
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('writes a failed batch again job by job: only the bad job fails, the others are answered', async () => {
    const { writer, batches } = recorder();
    const settled = await Promise.allSettled([1, 2, 3].map((n) => writer.submit({ key: `k${n}`, n, fail: n === 2 })));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'batch with 1 failed' });
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('runs one transaction at a time and keeps arrival order across batches', async () => {
    const { writer, batches, maxInFlight } = recorder(4);
    const jobs = Array.from({ length: 40 }, (_, i) => ({ key: `visitor-${i % 8}`, n: i }));
    const results = await Promise.all(jobs.map((j) => writer.submit(j)));
    expect(results).toEqual(jobs.map((j) => `done ${j.n}`));
    expect(maxInFlight()).toBe(1);
    expect(batches.flat()).toEqual(jobs.map((j) => j.n));
  });

  it('never writes a committed batch again, even when reporting it throws', async () => {
    let runs = 0;
    const writer = new GroupCommit<Job, string>({
      run: async (jobs) => {
        runs++;
        return jobs.map((j) => `done ${j.n}`);
      },
      maxBatch: 64,
      onBatch: () => {
        throw new Error('metrics broken');
      },
    });
    expect(await Promise.all([1, 2].map((n) => writer.submit({ key: 'a', n })))).toEqual(['done 1', 'done 2']);
    expect(runs).toBe(1);
    expect(await writer.submit({ key: 'a', n: 3 })).toBe('done 3'); // the writer is not stuck
  });

  it('starts again after going idle', async () => {
    const { writer, batches } = recorder();
    expect(await writer.submit({ key: 'a', n: 1 })).toBe('done 1');
    expect(await writer.submit({ key: 'a', n: 2 })).toBe('done 2');
    expect(batches).toEqual([[1], [2]]);
  });
});
