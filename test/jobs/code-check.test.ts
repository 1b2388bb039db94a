/**
 * The codes pass on its own (jobs/code-check.ts), against a service index made by hand: what is an unknown code
 * and what is not, and the cause an error of a rule across sheets is given.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readAndValidate } from '../../core/app/validate.js';
import { unknownCodeIssues, withCodeIssues } from '../../core/jobs/code-check.js';
import { IDENTIFIED_KINDS } from '../../core/jobs/entities.js';
import type { ServiceIndex } from '../../core/jobs/resolve.js';
import { tempDir, writeXlsx } from '../workbook/helpers.js';

const tmp = tempDir('sl-code-check-');
afterAll(() => tmp.cleanup());

/** What a plan's reads found: the plant PL-1, the material MAT-SAND; the catalogs seen with their names. */
function service(o: { unreadablePlants?: boolean } = {}): ServiceIndex {
  return {
    ...(Object.fromEntries(IDENTIFIED_KINDS.map((k) => [k, new Map()])) as Pick<
      ServiceIndex,
      (typeof IDENTIFIED_KINDS)[number]
    >),
    product: new Map(),
    plant: new Map([['PL-1', { id: '00000000-0000-0000-0000-000000000001', source: 'service' as const }]]),
    material: new Map([
      [
        'MAT-SAND',
        {
          ref: { category: 'elementary', elementary_id: '00000000-0000-0000-0000-000000000002' },
          source: 'service' as const,
        },
      ],
    ]),
    unreadable: o.unreadablePlants ? { plant: 'could not read plants from the service: 500' } : {},
    codeOfId: new Map(),
    seen: {
      plant: new Map([['PL-1', 'Werk Eins']]),
      material: new Map([
        ['MAT-SAND', 'Sand 0/2'],
        ['MAT-GRAVEL', 'Kies'],
      ]),
    },
  } as ServiceIndex;
}

async function checked() {
  const file = tmp.file('codes.xlsx');
  await writeXlsx(file, {
    'supplier-products': [
      ['external_id', 'name', 'plant_code', 'material_code', 'supplier_plant_external_id', 'unit', 'action'],
      ['SP-1', 'Sand', 'PL-2', 'MAT-SNAD', null, 'KG', null],
      ['SP-2', 'Kies', 'PL-1', 'MAT-SAND', 'SPL-NONE', 'KG', null],
      ['SP-3', 'Alt', 'PL-9', 'MAT-NINE', null, 'KG', 'delete'],
      ['SP-4', 'Zu lang', 'PL-1', `M${'X'.repeat(300)}`, null, 'KG', null],
    ],
    silos: [
      ['external_id', 'name', 'plant_code'],
      ['SILO-1', 'Silo', 'PL-1'],
    ],
    'silo-items': [
      ['silo_external_id', 'supplier_product_external_id', 'year', 'amount'],
      ['SILO-1', 'SP-1', 2025, 1],
      ['SILO-1', 'SP-4', 2025, 1],
    ],
  });
  return readAndValidate([file]);
}

describe('the codes pass', () => {
  it('an unknown code at its cell with named hints; a delete row, a cell with its own error and known codes are not reported', async () => {
    const w = await checked();
    const issues = unknownCodeIssues(w.parsed, service(), w.report);
    expect(issues.map((i) => [`${i.sheet}!${i.cell}`, i.params])).toEqual([
      ['supplier-products!C2', { value: 'PL-2', variant: 'plant', hint: 'PL-1 — Werk Eins' }],
      ['supplier-products!D2', { value: 'MAT-SNAD', variant: 'material', hint: 'MAT-SAND — Sand 0/2' }],
      ['supplier-products!E3', { value: 'SPL-NONE', variant: 'supplier_plant' }],
    ]);
    // the over-long material code has its own error at D5: not said twice
    expect(w.report.issues.some((i) => i.cell === 'D5' && i.severity === 'error')).toBe(true);
  });

  it('a kind the service could not be read for is not said to be unknown', async () => {
    const w = await checked();
    const issues = unknownCodeIssues(w.parsed, service({ unreadablePlants: true }), w.report);
    expect(issues.map((i) => i.params?.variant)).toEqual(['material', 'supplier_plant']);
  });

  it('the report with them: counted, in cell order, rows with errors, and a silo rule they cause says so', async () => {
    const w = await checked();
    const siloRule = w.report.issues.find((i) => i.code === 'silo_item_plant');
    expect(siloRule).toMatchObject({ sheet: 'silo-items', cell: 'B2' });
    const report = withCodeIssues(w.parsed, w.report, unknownCodeIssues(w.parsed, service(), w.report));
    expect(report.errors).toBe(w.report.errors + 3);
    const rule = report.issues.find((i) => i.code === 'silo_item_plant')!;
    expect(rule.message).toBe(`${siloRule!.message} (because supplier-products!C2 is unknown)`);
    expect(rule.params?.cause).toBe('supplier-products!C2');
    const sp = report.issues.filter((i) => i.sheet === 'supplier-products').map((i) => i.cell);
    expect(sp.indexOf('C2')).toBeLessThan(sp.indexOf('D2'));
    expect(report.sheets.find((s) => s.name === 'supplier-products')?.blockedRows).toEqual(
      expect.arrayContaining([2, 3]),
    );
  });
});
