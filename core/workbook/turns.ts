/**
 * Turns of the event loop inside long synchronous work, such as a workbook written while a job's requests are in
 * flight: `nextTurn` lets what arrived meanwhile (an answer on a socket, a timer) be handled before the work goes
 * on; `turnEvery(n)` asks for one every n rows.
 *
 * The works waiting for a turn go on one per turn, in the order they asked: two workbooks written side by side
 * (the results and the failed rows) never put their slices into the same turn, so what arrives waits for one
 * slice at most.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

/** The next waiting work goes on; the one after it on the next turn (setImmediate: I/O that is ready runs first). */
function goOn(): void {
  const next = waiting.shift();
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(goOn);
  next?.();
}

/** One turn of the event loop, or as many as the works that asked before this one need. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(goOn);
    }
  });
}

/**
 * A counter of rows that asks for a turn of the event loop every `n` rows: a promise to await on the nth call, null
 * otherwise (no await, so the rows between turns cost nothing more).
 */
export function turnEvery(n: number): () => Promise<void> | null {
  let count = 0;
  return () => (++count % n === 0 ? nextTurn() : null);
}
