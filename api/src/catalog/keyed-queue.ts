/**
 * Runs tasks that share a key one after another, in this process; tasks of different keys run
 * freely. The products repository queues its writes to one product with it before taking that
 * product's database lock, so that a burst of orders for one product waits here in order instead
 * of polling the lock document (which, on FerretDB, would time some of them out).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
