/** A wake-up call another part of this process may register for: `wake()` is a no-op until `set` gave one. */
export class Wake {
  private fn: (() => void) | null = null;

  set(fn: (() => void) | null): void {
    this.fn = fn;
  }

  wake(): void {
    this.fn?.();
  }
}
