/**
 * Types of the two undici modules the transport loads directly (transport.ts): undici ships types for its
 * package entry only. Its entry also loads fetch, WebSocket, cookies, caches and mocks, none of which the client
 * uses: ~20 ms of every CLI start.
 */
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export = Pool;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request, which undici's entry attaches (Object.assign(Dispatcher.prototype, api)). */
  const request: Dispatcher['request'];
  export = request;
}
