/**
 * The app's dry run with mirrored sheets, through dispatch() against the in-process sandbox:
 * import.plan takes `mirror` (entity sheets only) and `maxDeletes`; the overview says per sheet how many
 * entities carry an external_id, how many the mirror deletes and the cap; over the cap they are blocked.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { writeTestWorkbook } from '../jobs/helpers.js';

let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-mirror-'));
});
afterAll(() => stopTestApp(mode, dir));

describe('import.plan with mirror', () => {
  it('counts the mirror deletes as writes under the cap, blocks them over it, refuses a sheet that cannot be mirrored', async () => {
    const p = path.join(dir, 'one.xlsx');
    await writeTestWorkbook(p, { 'supplier-companies': [{ external_id: 'MIR-1', name: 'Only one' }] });
    const f = mode.app.files.registerPath(p);
    const v = await call('import.validate', { fileId: f.fileId });
    const plain = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(plain.mirror).toEqual([]);
    expect(plain.writes).toBe(1);

    const under = await call('import.plan', {
      importId: v.importId,
      createOnly: false,
      mirror: ['supplier-companies'],
      maxDeletes: 1000,
    });
    const m = under.mirror[0];
    expect(m).toMatchObject({ sheet: 'supplier-companies', cap: 1000, overCap: false });
    expect(m.deletes).toBe(m.managed); // the demo's companies are all not in the sheet
    expect(m.deletes).toBeGreaterThan(0);
    // The demo's companies that still have supplier plants are blocked as in use; the others are deleted.
    const deletes = under.summary.byAction.delete ?? 0;
    expect(deletes + under.blocked).toBe(m.deletes);
    expect(under.writes).toBe(1 + deletes);

    const over = await call('import.plan', { importId: v.importId, createOnly: false, mirror: ['supplier-companies'] });
    expect(over.mirror[0]).toMatchObject({
      overCap: true,
      deletes: m.deletes,
      cap: Math.max(5, Math.floor(m.managed / 10)),
    });
    expect(over.summary.byAction.delete ?? 0).toBe(0);
    expect(over.blocked).toBe(m.deletes);

    const bad = await dispatch('import.plan', { importId: v.importId, mirror: ['bom'] }, mode.app);
    expect(bad.ok).toBe(false);
  });
});
