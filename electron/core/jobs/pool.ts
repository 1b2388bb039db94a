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
