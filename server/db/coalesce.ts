/**
 * Lookups that arrive in the same turn of the event loop share one query: the
 * keys asked for until the next turn are read together (`WHERE key = ANY($1)`)
 * and each caller gets its own row. On PostgreSQL a round trip costs more than
 * the read itself, so N concurrent requests pay one instead of N. Reads only,
 * outside transactions: a caller sees what was committed when the query ran,
 * as it would with its own query.
 */
export class Coalescer<K, V> {
  private waiting = new Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (err: unknown) => void }>>();

  /** load returns the rows found, by key; a key it leaves out resolves undefined. */
  constructor(private readonly load: (keys: K[]) => Promise<Map<K, V>>) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => void this.flush());
      const callers = this.waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    try {
      const found = await this.load([...batch.keys()]);
      for (const [key, callers] of batch) for (const c of callers) c.resolve(found.get(key));
    } catch (err) {
      for (const callers of batch.values()) for (const c of callers) c.reject(err);
    }
  }
}
