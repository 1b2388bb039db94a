/**
 * The app's dry run starts its service reads as soon as the sources are known: `import.columns` (the first call
 * after a file is picked or uploaded) starts /v2/me and the collection walks from the sheet lists on the active
 * connection, and `import.validate` of the same sources and mapping reads beside them instead of starting new ones;
 * other sources, or a mapping, stop them and start again. The dry run's plan is the one made without the early
 * start. No timing: the walk of supplier products is held until released.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceWalks } from '../../core/jobs/service-walks.js';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { buildDataset } from '../fixtures/dataset.js';
import { heldWalk } from '../fixtures/held-walk.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

vi.mock('../../core/api/index.js', async (original) =>
  (await import('../fixtures/held-walk.js')).withWatchedWalks(await original()),
);
vi.mock('../../core/app/validate.js', async (original) =>
  (await import('../fixtures/held-walk.js')).withWatchedRead(await original()),
);

let mode: BrowserMode;
let dir: string;
let file: string;
beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-dry-early-'));
  file = path.join(dir, 'every-sheet.xlsx');
  // Every sheet, 450 supplier products; the sheets declare their sizes, as Excel writes them.
  await writeDataWorkbook(
    file,
    buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, 'DE'),
  );
}, 120_000);
afterAll(() => stopTestApp(mode, dir));

/** The reads the sessions started early, once started (null: none). */
async function early(): Promise<{ walks: ServiceWalks } | null> {
  const e = (
    mode.app.sessions.imports as unknown as { early: { ready: Promise<{ walks: ServiceWalks } | null> } | null }
  ).early;
  return e ? e.ready : null;
}

/** Every row of a dry run, page by page. */
async function allRows(importId: string) {
  const rows = [];
  for (let offset = 0; ; offset += 500) {
    const p = await rpc(mode, 'import.planRows', { importId, offset, limit: 500 });
    rows.push(...p.rows);
    if (offset + 500 >= p.total) return rows;
  }
}

describe("the app's dry run starts its service reads when the file is known", () => {
  it('the walk is under way when import.columns returns; validate and the dry run use it; the plan is the same', async () => {
    heldWalk.reset();
    heldWalk.hold();
    const { fileId } = mode.app.files.registerPath(file);
    const cols = await rpc(mode, 'import.columns', { fileId });
    expect(cols.needed).toBe(false);
    // the Columns step returned with the walk asked for and not answered (held)
    expect(heldWalk.walks).toBe(1);
    const v = await rpc(mode, 'import.validate', { fileId });
    expect(v.errors).toBe(0);
    expect(heldWalk.walkedWhenRead).toEqual([1]); // no second walk for the read
    expect(mode.app.sessions.imports.get(v.importId).ahead?.walks.walks.supplier_product?.ended).toBe(false);
    heldWalk.release();
    const ov = await rpc(mode, 'import.plan', { importId: v.importId, createOnly: false });
    expect(heldWalk.walks).toBe(1); // the dry run picked its codes out of the walk started at the Columns step
    expect(ov.summary.entries).toBeGreaterThan(450);

    // The same workbook validated without the Columns step: the walk starts at validate, the plan is the same.
    const again = mode.app.files.registerPath(file);
    const v2 = await rpc(mode, 'import.validate', { fileId: again.fileId });
    const ov2 = await rpc(mode, 'import.plan', { importId: v2.importId, createOnly: false });
    expect(heldWalk.walks).toBe(2);
    expect(ov2.summary).toEqual(ov.summary);
    expect(ov2.preflight).toEqual(ov.preflight);
    expect(ov2.mirror).toEqual(ov.mirror);
    expect(await allRows(v2.importId)).toEqual(await allRows(v.importId));
  }, 180_000);

  it('validating other sources, or with a mapping, stops the early reads and starts its own', async () => {
    heldWalk.reset();
    heldWalk.hold();
    const a = mode.app.files.registerPath(file);
    await rpc(mode, 'import.columns', { fileId: a.fileId });
    const first = await early();
    expect(first).not.toBeNull();
    const stopped = vi.spyOn(first!.walks, 'cancel');
    const b = mode.app.files.registerPath(file);
    heldWalk.release();
    const v = await rpc(mode, 'import.validate', { fileId: b.fileId });
    expect(stopped).toHaveBeenCalled();
    expect(heldWalk.walks).toBe(2);
    expect(await early()).toBeNull();
    expect(mode.app.sessions.imports.get(v.importId).ahead?.walks).not.toBe(first!.walks);
    mode.app.sessions.imports.close(v.importId);

    // The same file validated with a mapping: the reads started without one are stopped.
    await rpc(mode, 'import.columns', { fileId: a.fileId });
    const unmapped = await early();
    const stoppedByMapping = vi.spyOn(unmapped!.walks, 'cancel');
    const m = await rpc(mode, 'import.validate', { fileId: a.fileId, mapping: { version: 1, sheets: {} } });
    expect(stoppedByMapping).toHaveBeenCalled();
    expect(mode.app.sessions.imports.get(m.importId).ahead?.walks).not.toBe(unmapped!.walks);
    mode.app.sessions.imports.close(m.importId);

    // Columns of one file, then of another: the first file's reads are stopped.
    await rpc(mode, 'import.columns', { fileId: a.fileId });
    const second = await early();
    const stoppedToo = vi.spyOn(second!.walks, 'cancel');
    await rpc(mode, 'import.columns', { fileId: b.fileId });
    expect(stoppedToo).toHaveBeenCalled();
    expect(await early()).not.toBe(second);
  }, 180_000);
});
