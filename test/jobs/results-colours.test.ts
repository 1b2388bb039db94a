/**
 * Colours of the results workbook, read back from the written file: every cell of a data
 * row carries its OWN row's outcome fill (none for unchanged), whatever outcome was written before it; system
 * sheets (lists, Instructions, the mapping sheets) keep exactly the fills and fonts they had. Two inputs: the
 * onboarding template filled as a user does, and the same template saved by LibreOffice Calc (whose cells
 * share one style, the case where unchanged rows turned "updated"). Each run has created, updated,
 * unchanged, failed (licence limit) and skipped rows, against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { OUTCOME_FILLS, writeResultsWorkbook } from '../../core/jobs/results-workbook.js';
import { runPlan, marksOfJob } from './job-folder.js';
import { DATA_SHEET_NAMES } from '../../core/workbook/types.js';
import { buildDataset, type DatasetSize, type SheetData } from '../fixtures/dataset.js';
import { fillTemplate } from '../fixtures/fill-template.js';
import { LO_PREFIX, LO_SIZE } from '../fixtures/libreoffice/make-fixtures.js';
import { ROOT } from '../fixtures/cli-process.js';
import { planFile, startEnv, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv('demo');
});
afterAll(async () => {
  await env?.close();
});

const MAPPING_SHEETS = new Set(['plants', 'materials']);

/** The solid fill colour of a cell, or null when it has none. */
function fillOf(cell: ExcelJS.Cell): string | null {
  const f = cell.fill as ExcelJS.Fill | undefined;
  if (!f || f.type !== 'pattern' || f.pattern === 'none') return null;
  return f.fgColor?.argb ?? f.fgColor?.theme?.toString() ?? 'other';
}

/** JSON with sorted keys, so two equal styles compare equal whatever order their keys were read in. */
const canonical = (v: unknown): string =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
        .join(',')}}`
    : JSON.stringify(v ?? null);
const styleOf = (cell: ExcelJS.Cell) => canonical({ fill: fillOf(cell), font: cell.font ?? null });

function headerCol(ws: ExcelJS.Worksheet, header: string): number {
  let found = 0;
  ws.getRow(1).eachCell((c, n) => {
    if (c.value === header) found = n;
  });
  return found;
}

/**
 * Run a job with every kind of outcome from `file` (whose rows are `data`): the first company exists with the
 * same values (unchanged), the second with another name (updated), the licence allows one more product
 * instance (the first created, the second failed, the rest skipped, and what depends on them skipped).
 */
async function mixedResults(file: string, data: SheetData, out: string): Promise<Set<string>> {
  const [c1, c2] = data['supplier-companies']!;
  await env.client.supplierCompanies.create({
    external_id: String(c1.external_id),
    name: String(c1.name),
    country: String(c1.country),
  });
  await env.client.supplierCompanies.create({
    external_id: String(c2.external_id),
    name: 'Another name',
    country: String(c2.country),
  });
  const plan = await planFile(file, { client: env.client });
  const active = (await env.state()).product_instances.active;
  await env.control('PUT', '/__sandbox/entitlements', { product_instances: active + 1 });
  try {
    const result = await runPlan(plan, { client: env.client, jobsDir: env.jobsDir, concurrency: 1 });
    expect(result.status).toBe('completed');
    await writeResultsWorkbook(file, plan, result, out, await marksOfJob(env.jobsDir, result.jobId));
    return new Set(result.entries.map((e) => e.outcome));
  } finally {
    await env.control('PUT', '/__sandbox/entitlements', { product_instances: null });
  }
}

/** Every mismatch between a cell's fill and its row's `_result`, and every style change on a system sheet. */
async function colourProblems(input: string, output: string): Promise<{ problems: string[]; seen: Set<string> }> {
  const before = new ExcelJS.Workbook();
  await before.xlsx.readFile(input);
  const after = new ExcelJS.Workbook();
  await after.xlsx.readFile(output);
  const problems: string[] = [];
  const seen = new Set<string>();
  const dataSheets = new Set<string>(DATA_SHEET_NAMES.filter((n) => !MAPPING_SHEETS.has(n)));
  for (const ws of after.worksheets) {
    if (ws.name === 'Report') continue;
    const old = before.getWorksheet(ws.name);
    if (!old) {
      problems.push(`unexpected sheet ${ws.name}`);
      continue;
    }
    // Visibility (the hidden lists sheet stays hidden) and column widths as they were (the streamed copy).
    if (ws.state !== old.state) problems.push(`${ws.name}: state ${old.state} became ${ws.state}`);
    // Data validations (the drop-downs) as they were.
    const dv = (w: ExcelJS.Worksheet) =>
      canonical((w as unknown as { dataValidations: { model: unknown } }).dataValidations.model);
    if (dv(ws) !== dv(old)) problems.push(`${ws.name}: data validations changed`);
    for (let c = 1; c <= old.columnCount; c++) {
      if (headerCol(ws, '_result') > 0 && c >= headerCol(ws, '_result')) break;
      const w = old.getColumn(c).width;
      if (w !== undefined && ws.getColumn(c).width !== w)
        problems.push(`${ws.name}: column ${c} width ${w} became ${ws.getColumn(c).width}`);
    }
    if (!dataSheets.has(ws.name)) {
      // A system sheet (lists, Instructions, mapping sheets): every cell as it was.
      const rows = Math.max(ws.rowCount, old.rowCount);
      const cols = Math.max(ws.columnCount, old.columnCount);
      for (let r = 1; r <= rows; r++)
        for (let c = 1; c <= cols; c++) {
          const a = ws.getRow(r).getCell(c);
          const b = old.getRow(r).getCell(c);
          if (headerCol(ws, '_result') > 0 && c >= headerCol(ws, '_result')) continue; // the mapping sheets' note column
          if (styleOf(a) !== styleOf(b)) problems.push(`${ws.name}!${a.address}: ${styleOf(b)} became ${styleOf(a)}`);
        }
      continue;
    }
    const resultCol = headerCol(ws, '_result');
    const last = headerCol(ws, '_message');
    expect(resultCol, `${ws.name} has a _result column`).toBeGreaterThan(1);
    // The header row: input headers unchanged.
    for (let c = 1; c < resultCol; c++) {
      const a = ws.getRow(1).getCell(c);
      const b = old.getRow(1).getCell(c);
      if (styleOf(a) !== styleOf(b)) problems.push(`${ws.name}!${a.address}: ${styleOf(b)} became ${styleOf(a)}`);
    }
    for (let r = 2; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const outcome = row.getCell(resultCol).value;
      if (typeof outcome !== 'string' || outcome === '') {
        for (let c = 1; c <= last; c++)
          if (styleOf(row.getCell(c)) !== styleOf(old.getRow(r).getCell(c)))
            problems.push(`${ws.name}!${row.getCell(c).address}: a row without result changed style`);
        continue;
      }
      seen.add(`${ws.name}:${outcome}`);
      const want = OUTCOME_FILLS[outcome as keyof typeof OUTCOME_FILLS];
      expect(want, `${outcome} is an outcome`).not.toBeUndefined();
      for (let c = 1; c <= last; c++) {
        const got = fillOf(row.getCell(c));
        if (got !== want) problems.push(`${ws.name}!${row.getCell(c).address} (${outcome}): fill ${got}, want ${want}`);
      }
    }
  }
  return { problems, seen };
}

describe('results workbook colours', () => {
  it('the outcome colours are the documented ones', () => {
    expect(OUTCOME_FILLS).toMatchObject({
      failed: 'FFF8CBAD',
      skipped: 'FFFFE699',
      unchanged: null,
      updated: 'FFDDEBF7',
      created: 'FFE2EFDA',
    });
  });

  it('a template-made workbook: every cell of a data row has its own row’s outcome fill; system sheets untouched', async () => {
    const size: DatasetSize = { companies: 3, products: 6, silos: 2, instances: 3, prechain: 1 };
    const data = buildDataset(size, 'RC');
    const input = join(env.dir, 'template-filled.xlsx');
    await fillTemplate(join(ROOT, 'templates/supply-loader-onboarding.xlsx'), data, input);
    const out = join(env.dir, 'template-results.xlsx');
    const outcomes = await mixedResults(input, data, out);
    expect([...outcomes].sort()).toEqual(
      expect.arrayContaining(['created', 'failed', 'skipped', 'unchanged', 'updated']),
    );

    const { problems, seen } = await colourProblems(input, out);
    expect(problems.slice(0, 30)).toEqual([]);
    // The row of the issue: product-instances row 2 created, row 3 failed on the licence, row 4 skipped.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'product-instances:created',
        'product-instances:failed',
        'product-instances:skipped',
        'supplier-companies:unchanged',
        'supplier-companies:updated',
        'supplier-companies:created',
      ]),
    );
  });

  it('a workbook saved by LibreOffice: unchanged rows stay uncoloured, every row its own colour, lists untouched', async () => {
    const input = join(ROOT, 'test/fixtures/libreoffice/onboarding-filled.xlsx');
    const out = join(env.dir, 'libreoffice-results.xlsx');
    const outcomes = await mixedResults(input, buildDataset(LO_SIZE, LO_PREFIX), out);
    expect([...outcomes].sort()).toEqual(
      expect.arrayContaining(['created', 'failed', 'skipped', 'unchanged', 'updated']),
    );

    const { problems, seen } = await colourProblems(input, out);
    expect(problems.slice(0, 30)).toEqual([]);
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'supplier-companies:unchanged',
        'supplier-companies:updated',
        'product-instances:failed',
      ]),
    );
  });
});
