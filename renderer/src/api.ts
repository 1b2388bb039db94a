/**
 * The renderer's one typed client of the contract. It picks the transport: the preload bridge in the desktop
 * app, or fetch + server-sent events to its own origin in browser mode. Screens call
 * `api.call('profiles.list', {})` and get the contract's output type, or an RpcFailure with words to show.
 */
import type { EventPayload, ProcedureInput, ProcedureOutput, RpcError, RpcResult } from '../../core/ipc/contract.js';
import { EVENT_NAMES } from '../../core/contract/names.js';
import type { EventName, ProcedureName } from '../../core/contract/names.js';
import type { SupplyLoaderBridge } from '../../electron/preload/bridge.js';

export interface Transport {
  readonly kind: 'electron' | 'http';
  invoke(name: ProcedureName, input: unknown): Promise<RpcResult>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

export class RpcFailure extends Error {
  override readonly name = 'RpcFailure';
  constructor(readonly error: RpcError) {
    super(error.message);
  }
}

function isRpcResult(v: unknown): v is RpcResult {
  return typeof v === 'object' && v !== null && typeof (v as { ok?: unknown }).ok === 'boolean';
}

const UNREACHABLE: RpcError = { code: 'unavailable', message: 'Supply Loader does not answer. Is it still running?' };

export function electronTransport(bridge: SupplyLoaderBridge): Transport {
  return {
    kind: 'electron',
    async invoke(name, input) {
      try {
        const r = await bridge.invoke(name, input);
        return isRpcResult(r) ? r : { ok: false, error: UNREACHABLE };
      } catch {
        return { ok: false, error: UNREACHABLE };
      }
    },
    subscribe: (event, listener) => bridge.subscribe(event, listener),
  };
}

type EventSourceCtor = new (url: string) => EventSource;

export function httpTransport(
  base = '',
  fetchImpl: typeof fetch = fetch,
  ES: EventSourceCtor | undefined = globalThis.EventSource,
): Transport {
  let source: EventSource | null = null;
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  function ensureSource() {
    if (source || !ES) return;
    source = new ES(`${base}/events`);
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (e) => {
        let payload: unknown;
        try {
          payload = JSON.parse((e as MessageEvent<string>).data);
        } catch {
          return;
        }
        for (const l of listeners.get(name) ?? []) l(payload);
      });
    }
  }

  return {
    kind: 'http',
    async invoke(name, input) {
      try {
        const res = await fetchImpl(`${base}/rpc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          credentials: 'same-origin',
          body: JSON.stringify(input ?? {}),
        });
        const body: unknown = await res.json().catch(() => undefined);
        return isRpcResult(body) ? body : { ok: false, error: UNREACHABLE };
      } catch {
        return { ok: false, error: UNREACHABLE };
      }
    },
    subscribe(event, listener) {
      ensureSource();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}

export interface Api {
  readonly transport: Transport['kind'];
  call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createApi(transport: Transport): Api {
  return {
    transport: transport.kind,
    async call(name, input) {
      const r = await transport.invoke(name, input);
      if (!r.ok) throw new RpcFailure(r.error);
      return r.data as ProcedureOutput<typeof name>;
    },
    on(event, listener) {
      return transport.subscribe(event, (p) => listener(p as EventPayload<typeof event>));
    },
  };
}

export function pickTransport(win: Pick<Window, 'supplyLoader'> = window): Transport {
  return win.supplyLoader ? electronTransport(win.supplyLoader) : httpTransport();
}
