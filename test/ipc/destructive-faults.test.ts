/**
 * The app's destructive path under faults, through the contract (dispatch) against the embedded sandbox: a
 * mirror import (a product instance with its BOM and production figures deleted, creates, updates, a BOM), its
 * undo, and the undo of that undo, each with answers dropped after the write was applied and injected 500s. Each
 * step leaves exactly the state the same steps leave without faults (ids of re-created entities aside).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput } from '../../core/ipc/contract.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { resolveConnection } from '../../core/app/profiles.js';
import { writeTestWorkbook, type Catalog, type SheetData } from '../jobs/helpers.js';
import { seedData, serviceState } from '../jobs/service-state.js';
import { rpc, startTestApp, stopTestApp, settledJob } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let client: ApiClient;
let baseUrl: string;
let cat: Catalog;
let n = 0;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);
async function control<T = unknown>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/__sandbox${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const settled = (jobId: string) => settledJob(mode, jobId, 60_000);

/** A finished job: resumed through the contract while a fault stopped it; nothing failed or skipped. */
async function finished(jobId: string): Promise<void> {
  let v = await settled(jobId);
  for (let i = 0; v.status !== 'completed' && i < 5; i++) {
    await call('jobs.resume', { jobId });
    v = await settled(jobId);
  }
  expect(v.status).toBe('completed');
  expect(v.counts.failed ?? 0).toBe(0);
  expect(v.counts.skipped ?? 0).toBe(0);
}

async function importWorkbook(data: SheetData, mirror: 'product-instances'[] = []): Promise<string> {
  const p = path.join(dir, `faults-${++n}.xlsx`);
  await writeTestWorkbook(p, data);
  const f = mode.app.files.registerPath(p);
  const v = await call('import.validate', { fileId: f.fileId });
  const plan = await call('import.plan', { importId: v.importId, createOnly: false, mirror });
  expect(plan.blocked).toBe(0);
  const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
  await finished(jobId);
  return jobId;
}

async function undo(jobId: string): Promise<string> {
  const dry = await call('jobs.undoPlan', { jobId });
  expect(dry.blocked).toBe(0);
  const { jobId: undoId } = await call('jobs.undo', { jobId, skipBlocked: false });
  await finished(undoId);
  return undoId;
}

function jobData(): SheetData {
  const d = seedData(cat, 'I');
  return {
    plants: d.plants,
    materials: d.materials,
    'supplier-companies': [
      { external_id: 'ISC-NEW', name: 'Neu GmbH', country: 'AT' },
      { external_id: 'ISC-1', name: 'Holcim AG', country: 'CH' },
    ],
    'product-instances': d['product-instances']!.filter((r) => r.external_id === 'IPI-1'),
    bom: [
      {
        product_instance_external_id: 'IPI-1',
        component_type: 'supplier_product',
        component_external_id: 'ISP-1',
        mass_kg: 950,
      },
    ],
  };
}

async function fresh(): Promise<void> {
  await control('PUT', '/faults', {});
  await control('POST', '/reset', { seed: 'empty' });
  cat = await control<Catalog>('GET', '/catalog');
  await importWorkbook(seedData(cat, 'I'));
}

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-destructive-ipc-'));
  const conn = await resolveConnection(mode.app);
  baseUrl = conn.baseUrl;
  client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
});
afterAll(async () => {
  await client?.close();
  await stopTestApp(mode, dir);
});

// The app's client retries a write 6 times: rates at which a write failing every attempt by chance is out of reach.
describe('the app: mirror, undo and the undo of the undo under faults', () => {
  it('dropped answers and 500s: each step leaves the exact state it leaves without faults', async () => {
    await fresh();
    const before = await serviceState(client);
    await importWorkbook(jobData(), ['product-instances']);
    const afterJob = await serviceState(client);
    expect(afterJob.productInstances.map((i) => i.external_id)).toEqual(['IPI-1']);

    await fresh();
    expect(await serviceState(client)).toEqual(before);
    await control('PUT', '/faults', {
      reset_after_commit_rate: 0.1,
      error_rate: 0.05,
      only: { writes: true },
      seed: 17,
    });
    try {
      const job = await importWorkbook(jobData(), ['product-instances']);
      expect(await serviceState(client)).toEqual(afterJob);
      const first = await undo(job);
      expect(await serviceState(client)).toEqual(before);
      await undo(first);
      expect(await serviceState(client)).toEqual(afterJob);
    } finally {
      await control('PUT', '/faults', {});
    }
  });
});
