/** The preload bridge forwards only contract procedures and events, and never hands the IPC event to the page. */
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, PROCEDURE_NAMES } from '../../core/contract/names.js';
import type { EventName, ProcedureName } from '../../core/contract/names.js';
import { createBridge } from '../../electron/preload/bridge.js';
import type { IpcRendererLike } from '../../electron/preload/bridge.js';

function fakeIpcRenderer() {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      invoked.push({ channel, args });
      return { ok: true, data: 'x' };
    },
    on: (channel, l) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(l);
    },
    removeListener: (channel, l) => {
      listeners.get(channel)?.delete(l);
    },
  };
  const emit = (channel: string, payload: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'SECRET-IPC-EVENT', ports: [] }, payload);
  };
  return { ipc, invoked, listeners, emit };
}

describe('preload bridge', () => {
  it('invokes each contract procedure on its own channel with the input', async () => {
    const f = fakeIpcRenderer();
    const bridge = createBridge(f.ipc);
    for (const name of PROCEDURE_NAMES) await bridge.invoke(name, { a: 1 });
    expect(f.invoked.map((i) => i.channel)).toEqual(PROCEDURE_NAMES.map((n) => `supply-loader:rpc:${n}`));
    expect(f.invoked[0].args).toEqual([{ a: 1 }]);
  });

  it('refuses names outside the contract without touching IPC', async () => {
    const f = fakeIpcRenderer();
    const bridge = createBridge(f.ipc);
    for (const bad of ['shell.openExternal', 'supply-loader:rpc:app.info', '__proto__', 'constructor', '']) {
      await expect(bridge.invoke(bad as ProcedureName)).rejects.toThrow('Unknown request.');
      expect(() => bridge.subscribe(bad as EventName, () => {})).toThrow('Unknown event.');
    }
    expect(f.invoked).toEqual([]);
    expect(f.listeners.size).toBe(0);
  });

  it('delivers only the payload of an event, and unsubscribes', () => {
    const f = fakeIpcRenderer();
    const bridge = createBridge(f.ipc);
    const got: unknown[][] = [];
    const off = bridge.subscribe(EVENT_NAMES[0], (...args: unknown[]) => got.push(args));
    f.emit(`supply-loader:event:${EVENT_NAMES[0]}`, { p: 1 });
    expect(got).toEqual([[{ p: 1 }]]);
    off();
    f.emit(`supply-loader:event:${EVENT_NAMES[0]}`, { p: 2 });
    expect(got).toHaveLength(1);
  });

  it('is frozen: the page cannot swap its functions', () => {
    const bridge = createBridge(fakeIpcRenderer().ipc);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe', 'transport']);
  });
});
