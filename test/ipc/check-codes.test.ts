/**
 * The app's Check step (`import.validate` with checkCodes) checks the workbook's codes on the active connection
 * in the same pass as the cells: a header error, a material-code typo (with its suggestion, by name), an unknown
 * plant code and the silo rule it breaks come back together, each at its cell, in the contract's issue view;
 * nothing is written. Without a usable connection the view says the codes were not checked, and why.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { WorkbookIssueView } from '../../core/contract/index.js';
import { issueText } from '../../renderer/src/screens/import/issueText.js';
import { writeCodesWorkbook } from '../fixtures/codes-workbook.js';
import { sandboxControl, type LoggedRequest } from '../fixtures/cli-process.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let fileId: string;

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-check-codes-'));
  const file = path.join(dir, 'codes.xlsx');
  await writeCodesWorkbook(file);
  fileId = mode.app.files.registerPath(file).fileId;
});
afterAll(() => stopTestApp(mode, dir));

const at = (issues: WorkbookIssueView[], sheet: string, cell: string) =>
  issues.filter((i) => i.sheet === sheet && i.cell === cell);

describe('the Check step with codes', () => {
  it('gives the header error, the typo with its suggestion, the unknown plant code and the silo rule it breaks, each at its cell; nothing written', async () => {
    const v = await rpc(mode, 'import.validate', { fileId, checkCodes: true });
    expect(v.codes).toEqual({ checked: true, unknown: 2 });
    expect(at(v.issues, 'hazardous-substances', 'B1').length).toBeGreaterThan(0);
    const typo = at(v.issues, 'supplier-products', 'D2');
    expect(typo).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'code_unknown',
        field: 'material_code',
        params: { value: 'MAT-SNAD', variant: 'material', hint: 'MAT-SAND — Sand 0/2, washed' },
      }),
    ]);
    expect(at(v.issues, 'supplier-products', 'C3')).toEqual([
      expect.objectContaining({ code: 'code_unknown', params: expect.objectContaining({ value: 'PL-MUX' }) }),
    ]);
    const silo = at(v.issues, 'silo-items', 'B2');
    expect(silo).toEqual([
      expect.objectContaining({
        code: 'silo_item_plant',
        params: expect.objectContaining({ cause: 'supplier-products!C3' }),
      }),
    ]);
    expect(v.errors).toBe(v.issues.filter((i) => i.severity === 'error').length);
    // both supplier-products rows with an unknown code count as rows with errors
    expect(v.sheets.find((s) => s.name === 'supplier-products')?.blockedRows).toBe(2);
    // as the screen words them, in German and English
    expect(issueText(typo[0], 'de')).toBe(
      'Materialcode: Der Materialcode „MAT-SNAD“ steht weder im Blatt materials noch in den Zuordnungen des Profils noch unter den Elementaren und Composites des Dienstes. (meinten Sie MAT-SAND — Sand 0/2, washed?)',
    );
    expect(issueText(silo[0], 'de')).toMatch(/eigenen Werks\. \(weil supplier-products!C3 unbekannt ist\)$/);
    expect(issueText(silo[0], 'en')).toMatch(/its own plant only \(because supplier-products!C3 is unknown\)$/);
    const log = await sandboxControl<{ entries: LoggedRequest[] }>(mode.app.sandbox.baseUrl()!, 'GET', '/requests');
    expect(log.entries.filter((r) => r.method !== 'GET' && !r.path.startsWith('/__sandbox'))).toEqual([]);
  });

  it('without checkCodes: the workbook on its own, as before (no unknown codes, no codes field)', async () => {
    const v = await rpc(mode, 'import.validate', { fileId });
    expect(v.codes).toBeUndefined();
    expect(v.issues.some((i) => i.code === 'code_unknown')).toBe(false);
    expect(at(v.issues, 'silo-items', 'B2')[0].params).not.toHaveProperty('cause');
  });

  it('a connection without a key: the codes are not checked, and the view says why', async () => {
    const p = await rpc(mode, 'profiles.save', { name: 'No key', baseUrl: 'https://api.example.invalid' });
    await rpc(mode, 'profiles.select', { profileId: p.profileId });
    try {
      const v = await rpc(mode, 'import.validate', { fileId, checkCodes: true });
      expect(v.codes).toEqual({ checked: false, reason: expect.stringContaining('has no API key') });
      expect(v.issues.some((i) => i.code === 'code_unknown')).toBe(false);
    } finally {
      await rpc(mode, 'profiles.select', { profileId: 'sandbox' });
    }
  });
});
