/**
 * The app's dry run reads the service as the CLI's plan does (app/read-ahead.ts readWhileWalking): with an active
 * connection, `import.validate` starts the walks of the collections the fed sheets ask codes of before the rows
 * are read, and `import.plan` on that connection uses them instead of walking again. The Check step's codes pass
 * is the dry run's plan made with them: the dry run with the default options shows that plan (no second
 * planning), one with other options plans again with the codes it resolved (no second walk), and a plan no dry
 * run showed is removed with its import. No timing: the walk of supplier products is held until released, and was
 * asked for before reading and validating returned, as were the plant and material-type catalogs' walks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

// The walk of supplier products waits, once started, until the test releases it.
heldWalk.hold();

let mode: BrowserMode;
let dir: string;
beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-dry-ahead-'));
});
afterAll(() => stopTestApp(mode, dir));

describe("the app's dry run walks the service while the workbook is read", () => {
  it('the walk runs while the read is pending; the dry run uses it and walks nothing again', async () => {
    const file = path.join(dir, 'every-sheet.xlsx');
    // Every sheet, 450 supplier products; the sheets declare their sizes, as Excel writes them.
    await writeDataWorkbook(
      file,
      buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, 'DA'),
    );
    const { fileId } = mode.app.files.registerPath(file);
    const v = await rpc(mode, 'import.validate', { fileId });
    expect(v.errors).toBe(0);
    // reading and validating returned with the walk asked for and not answered (held)
    expect(heldWalk.walkedWhenRead).toEqual([1]);
    expect(mode.app.sessions.imports.get(v.importId).ahead?.walks.walks.supplier_product?.ended).toBe(false);
    heldWalk.release();
    const ov = await rpc(mode, 'import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.entries).toBeGreaterThan(450);
    expect(heldWalk.walks).toBe(1); // the dry run picked its codes out of the walk started beside the read
    expect(mode.app.sessions.imports.get(v.importId).ahead).toBeNull();
    // the plant and elementary catalogs too: walked beside the read, not asked again by the dry run
    expect(heldWalk.catalogReads.sort((a, b) => a.read.localeCompare(b.read))).toEqual([
      { read: 'elementaries.walk', afterRead: false },
      { read: 'plants.walk', afterRead: false },
    ]);
  }, 120_000);

  it('the Check step plans the dry run with the same walk, and the dry run shows that plan', async () => {
    const { fileId, before } = await checkedWorkbook('every-sheet-checked.xlsx', 'DC');
    const v = await rpc(mode, 'import.validate', { fileId, checkCodes: true });
    expect(v.codes).toEqual({ checked: true, unknown: 0 });
    const ahead = mode.app.sessions.imports.get(v.importId).ahead;
    expect(ahead?.resolved).toBeDefined();
    const made = ahead!.planned!;
    expect(fs.existsSync(folderOf(made.jobId))).toBe(true);
    // What the dry run takes of the walks is kept (/v2/me's answer), not the walks and the entities they found.
    expect(ahead?.walks.walks).toEqual({});
    expect((await ahead!.walks.me).manufacturer_id).toBeTruthy();
    // Nor every code the workbook refers to (the report's references): nothing the session does reads them.
    expect(v.errors).toBe(0);
    expect(mode.app.sessions.imports.get(v.importId).report.references).toEqual({});
    const ov = await rpc(mode, 'import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.entries).toBeGreaterThan(450);
    expect(ov.summary).toEqual(made.plan.summary);
    // the check's plan, in its folder: no second planning
    expect(mode.app.sessions.imports.get(v.importId).planned?.jobId).toBe(made.jobId);
    expect(mode.app.sessions.imports.get(v.importId).ahead).toBeNull();
    // one walk of supplier products for the read, the codes pass and the dry run together
    expect(heldWalk.walks - before).toBe(1);
    // the dry run made again (nothing kept ahead any more): planned anew, the check's folder replaced
    await rpc(mode, 'import.plan', { importId: v.importId, createOnly: false });
    expect(mode.app.sessions.imports.get(v.importId).planned?.jobId).not.toBe(made.jobId);
    expect(await gone(made.jobId)).toBe(true);
  }, 120_000);

  it('a dry run with other options plans again with the codes the check resolved, and drops its plan', async () => {
    const { fileId, before } = await checkedWorkbook('every-sheet-create-only.xlsx', 'DO');
    const v = await rpc(mode, 'import.validate', { fileId, checkCodes: true });
    const made = mode.app.sessions.imports.get(v.importId).ahead!.planned!;
    const ov = await rpc(mode, 'import.plan', { importId: v.importId, createOnly: true });
    expect(ov.createOnly).toBe(true);
    expect(mode.app.sessions.imports.get(v.importId).planned?.jobId).not.toBe(made.jobId);
    expect(heldWalk.walks - before).toBe(1); // no second walk
    expect(await gone(made.jobId)).toBe(true);
  }, 120_000);

  it('a check stopped while it plans leaves no plan behind', async () => {
    const { fileId, before } = await checkedWorkbook('every-sheet-stopped.xlsx', 'DS');
    const folders = () => fs.readdirSync(mode.app.sessions.jobs.jobsDir).length;
    const had = fs.existsSync(mode.app.sessions.jobs.jobsDir) ? folders() : 0;
    heldWalk.hold();
    try {
      const checking = rpc(mode, 'import.validate', { fileId, checkCodes: true });
      checking.catch(() => {});
      // the plan has begun and waits for the walk of supplier products
      for (let t0 = Date.now(); heldWalk.walks === before || folders() === had;) {
        if (Date.now() - t0 > 30_000) throw new Error('the check did not start planning');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await rpc(mode, 'import.cancel', { fileId })).accepted).toBe(true);
      await expect(checking).rejects.toThrow(/Stopped on request/);
      for (let t0 = Date.now(); folders() !== had;) {
        if (Date.now() - t0 > 5_000) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(folders()).toBe(had);
    } finally {
      heldWalk.release();
    }
  }, 120_000);

  it("the check's plan is removed when its import is closed", async () => {
    const { fileId } = await checkedWorkbook('every-sheet-closed.xlsx', 'DX');
    const v = await rpc(mode, 'import.validate', { fileId, checkCodes: true });
    const made = mode.app.sessions.imports.get(v.importId).ahead!.planned!;
    expect(fs.existsSync(folderOf(made.jobId))).toBe(true);
    await rpc(mode, 'import.close', { importId: v.importId });
    expect(await gone(made.jobId)).toBe(true);
  }, 120_000);
});

/** A workbook of every sheet registered with the app, and the walks of supplier products so far. */
async function checkedWorkbook(name: string, prefix: string): Promise<{ fileId: string; before: number }> {
  const file = path.join(dir, name);
  await writeDataWorkbook(
    file,
    buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, prefix),
  );
  return { fileId: mode.app.files.registerPath(file).fileId, before: heldWalk.walks };
}

const folderOf = (jobId: string) => path.join(mode.app.sessions.jobs.jobsDir, jobId);

/** The job folder is removed (it is, asynchronously, once nothing uses it). */
async function gone(jobId: string): Promise<boolean> {
  for (let t0 = Date.now(); fs.existsSync(folderOf(jobId));) {
    if (Date.now() - t0 > 5_000) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
