/**
 * What the preload exposes to the page, built from the contract's name allowlist: invoke(procedure, input)
 * for contract procedures only, subscribe(event, listener) for contract events only. Nothing else of
 * ipcRenderer reaches the page: not send, not on with arbitrary channels, not the IPC event object.
 * Kept free of the electron import so a test can build it with a fake ipcRenderer.
 */
import { eventChannel, isEventName, isProcedureName, procedureChannel } from '../../core/contract/names.js';
import type { EventName, ProcedureName } from '../../core/contract/names.js';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface SupplyLoaderBridge {
  readonly transport: 'electron';
  invoke(procedure: ProcedureName, input?: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

export function createBridge(ipc: IpcRendererLike): SupplyLoaderBridge {
  return Object.freeze({
    transport: 'electron' as const,
    invoke(procedure: ProcedureName, input?: unknown): Promise<unknown> {
      if (!isProcedureName(procedure)) return Promise.reject(new Error('Unknown request.'));
      return ipc.invoke(procedureChannel(procedure), input);
    },
    subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
      if (!isEventName(event)) throw new Error('Unknown event.');
      if (typeof listener !== 'function') throw new Error('A listener function is required.');
      const wrapped = (_e: unknown, payload: unknown) => listener(payload);
      ipc.on(eventChannel(event), wrapped);
      return () => {
        ipc.removeListener(eventChannel(event), wrapped);
      };
    },
  });
}
