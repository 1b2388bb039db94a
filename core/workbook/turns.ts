/**
 * Turns of the event loop inside long synchronous work, such as a workbook written while a job's requests are in
 * flight: `nextTurn` lets what arrived meanwhile (an answer on a socket, a timer) be handled before the work goes
 * on; `turnEvery(n)` asks for one every n rows.
 */

/** One turn of the event loop (setImmediate: I/O that is ready runs first). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A counter of rows that asks for a turn of the event loop every `n` rows: a promise to await on the nth call, null
 * otherwise (no await, so the rows between turns cost nothing more).
 */
export function turnEvery(n: number): () => Promise<void> | null {
  let count = 0;
  return () => (++count % n === 0 ? nextTurn() : null);
}
