/**
 * Validation runs beside the service walks on the main thread: the event loop turns between slices of every
 * step (the rows, then each check across rows), not only every few thousand rows, and the issues found do not
 * depend on where it paused. The slice is injectable: 0 turns at every point the work may pause.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { getSheet } from '../../core/workbook/registry.js';
import type { ParsedWorkbook, ValidationReport } from '../../core/workbook/types.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { ValidationContext } from '../../core/workbook/validation-context.js';
import { headerOf, rowOf, tempDir, writeXlsx } from './helpers.js';

/** Turns of the event loop so far (a setImmediate ticker), and where each step of the checks began and ended. */
let ticks = 0;
const marks: { step: string; from: number; to: number }[] = [];

function* marked<R>(step: string, work: Generator<void, R>): Generator<void, R> {
  const from = ticks;
  const result = yield* work;
  marks.push({ step, from, to: ticks });
  return result;
}

vi.mock('../../core/workbook/duplicate-keys.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/workbook/duplicate-keys.js')>();
  return {
    checkDuplicateKeys: (...args: Parameters<typeof real.checkDuplicateKeys>) =>
      marked(`duplicate keys ${args[2].name}`, real.checkDuplicateKeys(...args)),
  };
});
vi.mock('../../core/workbook/references.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/workbook/references.js')>();
  return {
    ...real,
    referencedCodesWork: (...args: Parameters<typeof real.referencedCodesWork>) =>
      marked('references', real.referencedCodesWork(...args)),
  };
});

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const M1 = '00000000-0000-4000-8000-0000000000b1';
const PRODUCTS = 3000;
const code = (i: number) => `SP-${String(i).padStart(5, '0')}`;

let parsed: ParsedWorkbook;
beforeAll(async () => {
  const path = tmp.file('slices.xlsx');
  const products = [];
  for (let i = 0; i < PRODUCTS; i++)
    products.push(
      rowOf('supplier-products', {
        // every 100th row repeats the code of the row before it: a duplicate key
        external_id: code(i % 100 === 99 ? i - 1 : i),
        name: `Product ${i}`,
        plant_code: i % 50 === 8 ? 'P2' : 'P1',
        material_code: 'M1',
        supplier_plant_external_id: i % 3 === 0 ? 'SPL-1' : 'SPL-ON-SERVICE',
        unit: 'T',
      }),
    );
  const items = [];
  for (let i = 0; i < PRODUCTS; i += 2) items.push([`S-${i % 40}`, code(i), 2024, 10]);
  const bom = [];
  for (let i = 0; i < 2000; i++) bom.push([`PI-${i % 20}`, 'supplier_product', code(i % 900), 1]);
  await writeXlsx(path, {
    plants: [headerOf('plants'), ['P1', P1], ['P2', P2]],
    materials: [headerOf('materials'), ['M1', 'elementary', M1]],
    'supplier-companies': [headerOf('supplier-companies'), ['SC-1', 'Kies AG', 'DE']],
    'supplier-plants': [headerOf('supplier-plants'), ['SPL-1', 'Werk 1', 'SC-1', 'DE', 'Köln']],
    'supplier-products': [headerOf('supplier-products'), ...products],
    silos: [headerOf('silos'), ...Array.from({ length: 40 }, (_, i) => [`S-${i}`, `Silo ${i}`, 'P1'])],
    'silo-items': [headerOf('silo-items'), ...items],
    'product-instances': [
      headerOf('product-instances'),
      ...Array.from({ length: 20 }, (_, i) => [`PI-${i}`, `A-${i}`, 'P1', 2020, null]),
    ],
    bom: [headerOf('bom'), ...bom],
  });
  parsed = await readWorkbook(path);
}, 60_000);

/** Validates with a ticker running: the report, the turns in all, and each step's marks. */
async function validateTicking(sliceMs?: number): Promise<{ report: ValidationReport; turns: number }> {
  ticks = 0;
  marks.length = 0;
  let running = true;
  const tick = () => {
    ticks++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const report = await validateWorkbook(parsed, sliceMs === undefined ? {} : { sliceMs });
    return { report, turns: ticks };
  } finally {
    running = false;
  }
}

/** Wraps a sheet's workbookRules so that its turns are marked too; restores it after `run`. */
async function withMarkedRules<T>(run: () => Promise<T>): Promise<T> {
  const defs = [getSheet('silo-items'), getSheet('bom')];
  const originals = defs.map((d) => d.workbookRules!);
  defs.forEach((d, i) => (d.workbookRules = (ctx: ValidationContext) => marked(`rules ${d.name}`, originals[i](ctx))));
  try {
    return await run();
  } finally {
    defs.forEach((d, i) => (d.workbookRules = originals[i]));
  }
}

describe('validation in slices', () => {
  it('finds the same issues, in the same order, whether it pauses at every point or by time', async () => {
    const atEveryPoint = await validateTicking(0);
    const byTime = await validateTicking();
    const codes = new Set(atEveryPoint.report.issues.map((i) => i.code));
    for (const c of ['duplicate_key', 'duplicate_bom_component', 'silo_item_plant']) expect(codes).toContain(c);
    expect(atEveryPoint.report.references.supplier_plant?.length).toBeGreaterThan(0);
    expect(byTime.report).toEqual(atEveryPoint.report);
  });

  it('turns the event loop during the checks across rows: duplicate keys, each sheet’s rules, the references', async () => {
    await withMarkedRules(() => validateTicking(0));
    const turnsIn = (step: string) => {
      const m = marks.find((x) => x.step === step);
      expect(m, step).toBeDefined();
      return m!.to - m!.from;
    };
    expect(turnsIn('duplicate keys supplier-products')).toBeGreaterThan(10);
    expect(turnsIn('duplicate keys silo-items')).toBeGreaterThan(5);
    expect(turnsIn('rules silo-items')).toBeGreaterThan(5);
    expect(turnsIn('rules bom')).toBeGreaterThan(5);
    expect(turnsIn('references')).toBeGreaterThan(20);
  });

  it('turns the event loop while the rows are checked every few rows, not every few thousand', async () => {
    await validateTicking(0);
    const rows = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
    expect(rows).toBeGreaterThan(6000);
    // the first check across rows begins once every row is checked
    const rowPhase = Math.min(...marks.map((m) => m.from));
    expect(rowPhase).toBeGreaterThan(rows / 16);
  });
});
