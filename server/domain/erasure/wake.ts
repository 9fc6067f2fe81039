/** Wakes this process's erasure worker (erasureWorker.ts) when a job was written; a no-op before it runs. */
import type { AppContext } from '../../context.js';

const wakers = new WeakMap<AppContext, () => void>();

export function onErasureWake(ctx: AppContext, wake: (() => void) | null): void {
  if (wake) wakers.set(ctx, wake);
  else wakers.delete(ctx);
}

export function wakeErasures(ctx: AppContext): void {
  wakers.get(ctx)?.();
}
