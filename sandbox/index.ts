/**
 * The API v2 sandbox: a local implementation of ../shared/spec/api-v2.md (decisions on what the spec leaves
 * open: docs/api-assumptions.md). Start it in-process with startSandbox(); `npm run sandbox` wraps it.
 */
import type { AddressInfo } from 'node:net';
import { DataFile, loadDataFile } from './persistence.js';
import { buildServer } from './server.js';
import { Store, type SeedKind } from './store.js';

export interface SandboxOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** Default 127.0.0.1. The control API answers loopback peers only, whatever the host. */
  host?: string;
  /** Seed of a fresh store (ignored when dataFile exists). Default 'demo'. */
  seed?: SeedKind;
  /** Persist to this JSON file (atomic write-then-rename), and load it on start when it exists. */
  dataFile?: string;
  logger?: boolean;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:4010 — no trailing slash; the API lives under /v2, the control API under /__sandbox. */
  baseUrl: string;
  /** A full-scope key of the account owner (valid until the process ends, also across /__sandbox/reset). */
  ownerKey: string;
  manufacturerId: string;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = new Store();
  let dataFile: DataFile | null = null;
  const snapshot = opts.dataFile ? loadDataFile(opts.dataFile) : null;
  if (snapshot) {
    store.restore(snapshot);
    store.issueOwnerKey();
  } else {
    store.reset(opts.seed ?? 'demo');
  }
  if (opts.dataFile) {
    const df = new DataFile(opts.dataFile, store);
    dataFile = df;
    store.onChange = () => df.touch();
    df.touch();
  }

  const app = buildServer(store, { logger: opts.logger });
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  const urlHost =
    host === '0.0.0.0' || host === '::' || host === 'localhost' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closed: Promise<void> | null = null;
  return {
    baseUrl: `http://${urlHost}:${port}`,
    ownerKey: store.ownerKey,
    manufacturerId: store.manufacturerId,
    close() {
      closed ??= (async () => {
        await app.close();
        await dataFile?.flush();
      })();
      return closed;
    },
  };
}
