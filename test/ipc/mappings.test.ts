/**
 * Mapping memory in the desktop import (browser-mode services, embedded sandbox, active profile = Sandbox): an
 * import that completed leaves the workbook's mapping rows in the profile, and the next dry run of a workbook
 * without mapping sheets resolves the unknown plant and material codes from them (blocked once cleared).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureName } from '../../core/contract/names.js';
import type { Logger } from '../../core/app/services.js';
import { clearProfileMappings, getProfileMappings, SANDBOX_PROFILE_ID } from '../../core/settings/index.js';
import { startSandbox } from '../../sandbox/index.js';
import { idOf, writeTestWorkbook, type Catalog, type SheetData } from '../jobs/helpers.js';

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };
let mode: BrowserMode;
let dir: string;
let cat: Catalog;

async function call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>> {
  const r = await dispatch(name, input, mode.app);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as ProcedureOutput<N>;
}

async function dryRun(name: string, d: SheetData) {
  const p = path.join(dir, name);
  await writeTestWorkbook(p, d);
  const f = mode.app.files.registerPath(p);
  const v = await call('import.validate', { fileId: f.fileId });
  return call('import.plan', { importId: v.importId, createOnly: false });
}

const product = (id: string) => ({
  external_id: id,
  name: id,
  plant_code: 'WERK-7',
  material_code: 'ZEMENT-1',
  unit: 'KG',
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-ipc-map-'));
  mode = await startBrowserMode({
    port: 0,
    staticDir: null,
    configDir: path.join(dir, 'config'),
    startSandbox,
    log: quiet,
    appVersion: 'test',
  });
  const res = await fetch(`${mode.app.sandbox.baseUrl()}/__sandbox/catalog`);
  cat = (await res.json()) as Catalog;
});
afterAll(async () => {
  await mode?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('desktop import remembers mappings', () => {
  it('a completed import saves the mapping rows; the next dry run uses them; cleared, the codes are blocked', async () => {
    expect((await dryRun('none.xlsx', { 'supplier-products': [product('SP-D0')] })).blocked).toBe(1);

    const ov = await dryRun('with-map.xlsx', {
      plants: [{ plant_code: 'WERK-7', plant_id: idOf(cat.plants, 'PL-HEID') }],
      materials: [
        { material_code: 'ZEMENT-1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      ],
      'supplier-products': [product('SP-D1')],
    });
    expect(ov.blocked).toBe(0);
    expect(getProfileMappings(mode.app.settings, SANDBOX_PROFILE_ID).plants).toEqual({}); // not before the run
    const { jobId } = await call('import.run', { importId: ov.importId, skipBlocked: false });
    for (let t0 = Date.now(); (await call('jobs.get', { jobId })).running;) {
      if (Date.now() - t0 > 30_000) throw new Error('job still running');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call('jobs.get', { jobId })).status).toBe('completed');
    expect(getProfileMappings(mode.app.settings, SANDBOX_PROFILE_ID)).toEqual({
      plants: { 'WERK-7': idOf(cat.plants, 'PL-HEID') },
      materials: { 'ZEMENT-1': { category: 'elementary', id: idOf(cat.elementaries, 'MAT-CEM1') } },
    });

    const next = await dryRun('no-map.xlsx', { 'supplier-products': [product('SP-D2')] });
    expect(next.blocked).toBe(0);
    expect(next.summary.byAction.create).toBe(1);

    clearProfileMappings(mode.app.settings, SANDBOX_PROFILE_ID);
    expect((await dryRun('no-map-again.xlsx', { 'supplier-products': [product('SP-D3')] })).blocked).toBe(1);
  });
});
