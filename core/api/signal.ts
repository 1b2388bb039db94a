/**
 * The AbortController of work that runs many requests at once (a plan's reads, a job's writes, an LCA run): every
 * request in flight adds its listener to the signal, many more than Node's warning threshold of 10. Without this,
 * Node prints "MaxListenersExceededWarning: Possible EventTarget memory leak" for what is no leak (the listeners
 * are removed as each request settles).
 */
import { setMaxListeners } from 'node:events';

export function requestsController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal);
  return c;
}
