/**
 * A dry run and a job of the app run many requests at once on one signal (the session's, the job's): each adds
 * its abort listener. That is no leak, and Node must not say it is one: no MaxListenersExceededWarning in the
 * app's log (api/signal.ts).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { fullWorkbook, writeTestWorkbook, type Catalog } from '../jobs/helpers.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let cat: Catalog;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-signal-'));
  const res = await fetch(`${mode.app.sandbox.baseUrl() ?? ''}/__sandbox/catalog`);
  cat = (await res.json()) as Catalog;
  process.on('warning', onWarning);
});
afterEach(() => {
  warnings.length = 0;
});
afterAll(() => {
  process.off('warning', onWarning);
  return stopTestApp(mode, dir);
});

describe('many requests on one signal', () => {
  it('a dry run and its job: every request listens on the signal, and Node warns of no leak', async () => {
    const p = path.join(dir, 'onboarding.xlsx');
    await writeTestWorkbook(p, fullWorkbook(cat));
    const { fileId } = mode.app.files.registerPath(p);
    const { importId } = await rpc(mode, 'import.validate', { fileId });
    const ov = await rpc(mode, 'import.plan', { importId, createOnly: false });
    expect(ov.summary.entries).toBeGreaterThan(10);
    const { jobId } = await rpc(mode, 'import.run', { importId, skipBlocked: false });
    const deadline = Date.now() + 30_000;
    let status = 'running';
    while (status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await rpc(mode, 'jobs.get', { jobId })).status;
    }
    expect(status).toBe('completed');
    // warnings are emitted on the next tick
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  }, 60_000);
});
