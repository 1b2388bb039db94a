/** Run `fn` over `items` with at most `concurrency` calls in flight; stops taking new items once `stop()` says so. */
export async function forEachPooled<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const width = Math.max(1, Math.min(Math.floor(concurrency), items.length));
  const worker = async () => {
    while (next < items.length && !stop()) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** A counting semaphore: at most `size` holders at a time, FIFO. */
export class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = Math.max(1, Math.floor(size));
  }
  async use<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
