/**
 * Results and failed-rows workbooks of a job with created, failed, skipped (dependency) and blocked rows,
 * read back and asserted: result columns per data sheet, colours, ids, messages as text, the Report sheet,
 * the input left untouched, no key anywhere; the failed rows re-imported after fixing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTCOME_WORDS, writeResultsWorkbook, WORKBOOK_RESULT_COLUMNS } from '../../core/jobs/results-workbook.js';
import { writeFailedRowsWorkbook } from '../../core/jobs/failed-rows-workbook.js';
import { runPlan, marksOfJob } from './job-folder.js';
import type { JobResult, Plan } from '../../core/jobs/types.js';
import {
  catalog,
  fullWorkbook,
  planFile,
  readTestWorkbook,
  startEnv,
  writeTestWorkbook,
  type Env,
  type SheetData,
} from './helpers.js';

let env: Env;
let input: string;
let data: SheetData;
let plan: Plan;
let result: JobResult;
let inputHash: string;

const sha = async (p: string) =>
  createHash('sha256')
    .update(await readFile(p))
    .digest('hex');

beforeAll(async () => {
  env = await startEnv('demo');
  const cat = await catalog(env);
  data = fullWorkbook(cat);
  for (const s of Object.values(data))
    for (const r of s)
      for (const k of Object.keys(r))
        if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, 'W$1-');
  data['supplier-products']![2].material_code = 'MAT-UNKNOWN'; // WSP-3: blocked at plan time (its hazardous row with it)
  input = join(env.dir, 'input.xlsx');
  await writeTestWorkbook(input, data);
  inputHash = await sha(input);
  plan = await planFile(input, { client: env.client });
  await env.client.supplierCompanies.create({ external_id: 'WSC-1', name: 'Another name' }); // WSC-1 will fail (409)
  result = await runPlan(plan, { client: env.client, jobsDir: env.jobsDir, inputPath: input });
});
afterAll(async () => {
  await env?.close();
});

function cells(ws: ExcelJS.Worksheet, row: number, from: number): string[] {
  return WORKBOOK_RESULT_COLUMNS.map((_, i) => {
    const v = ws.getRow(row).getCell(from + i).value;
    return v === null || v === undefined ? '' : String(v);
  });
}

function columnOf(ws: ExcelJS.Worksheet, header: string): number {
  let found = 0;
  ws.getRow(1).eachCell((c, n) => {
    if (c.value === header) found = n;
  });
  return found;
}

describe('results workbook', () => {
  it('is a copy of the input with _result/_id/_err_code/_message/_outcome per row, colours, and a Report sheet', async () => {
    expect(result.status).toBe('completed');
    const out = join(env.dir, 'results.xlsx');
    await writeResultsWorkbook(input, plan, result, out, await marksOfJob(env.jobsDir, result.jobId));
    expect(await sha(input)).toBe(inputHash);
    await expect(
      writeResultsWorkbook(input, plan, result, input, await marksOfJob(env.jobsDir, result.jobId)),
    ).rejects.toThrow(/never changed/);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const sc = wb.getWorksheet('supplier-companies')!;
    expect(columnOf(sc, '_result')).toBe(4); // after external_id, name, country
    expect([1, 2, 3, 4, 5].map((c) => sc.getRow(1).getCell(c + 3).value)).toEqual([
      '_result',
      '_id',
      '_err_code',
      '_message',
      '_outcome',
    ]);
    expect(WORKBOOK_RESULT_COLUMNS).toEqual(['_result', '_id', '_err_code', '_message', '_outcome']);
    const [r1, id1, code1, msg1, words1] = cells(sc, 2, 4);
    expect([r1, id1, code1]).toEqual(['failed', '', 'err_external_id_exists']);
    // the code for scripts, the outcome in words beside it
    expect(words1).toBe('failed');
    expect(msg1).toContain('WSC-1');
    expect((sc.getRow(2).getCell(1).fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFF8CBAD');
    const [r2, id2] = cells(sc, 3, 4);
    expect(r2).toBe('created');
    expect(id2).toBe((await env.client.supplierCompanies.findByExternalId('WSC-2'))!.id);
    expect(sc.getRow(3).getCell(4).type).toBe(ExcelJS.ValueType.String);
    expect(sc.getRow(2).getCell(7).type).toBe(ExcelJS.ValueType.String);

    const spl = wb.getWorksheet('supplier-plants')!;
    const at = columnOf(spl, '_result');
    expect(cells(spl, 2, at)[0]).toBe('skipped');
    expect(cells(spl, 2, at)[3]).toContain('supplier company WSC-1');
    expect(cells(spl, 3, at)[0]).toBe('created');

    const sp = wb.getWorksheet('supplier-products')!;
    const spAt = columnOf(sp, '_result');
    expect(cells(sp, 4, spAt)[0]).toBe('skipped');
    expect(cells(sp, 4, spAt)[3]).toContain('MAT-UNKNOWN');
    const hz = wb.getWorksheet('hazardous-substances')!;
    expect(cells(hz, 2, columnOf(hz, '_result'))[0]).toBe('skipped'); // shares its product's outcome
    const items = wb.getWorksheet('silo-items')!;
    expect(cells(items, 2, columnOf(items, '_result'))[0]).toBe('skipped'); // the silo's product WSP-1 was skipped
    const plants = wb.getWorksheet('plants')!;
    expect(cells(plants, 2, columnOf(plants, '_result'))[0]).toBe('mapping');
    expect(cells(plants, 2, columnOf(plants, '_outcome'))[0]).toBe('code mapping');
    const bom = wb.getWorksheet('bom')!;
    expect(cells(bom, 2, columnOf(bom, '_result'))[0]).toBe('skipped');
    // every marked row's _outcome is its _result in the Report sheet's words, never a code
    for (const ws of [sc, spl, sp, hz, items, bom]) {
      const from = columnOf(ws, '_result');
      for (let r = 2; r <= ws.rowCount; r++) {
        const [code, , , , words] = cells(ws, r, from);
        if (code === '') continue;
        expect(words, `${ws.name} row ${r}`).toBe(OUTCOME_WORDS[code as keyof typeof OUTCOME_WORDS]);
        expect(words).not.toMatch(/_/);
      }
    }

    const report = wb.getWorksheet('Report')!;
    const pairs = new Map<string, string>();
    report.eachRow((row) => pairs.set(String(row.getCell(1).value), String(row.getCell(2).value ?? '')));
    expect(pairs.get('Job id')).toBe(result.jobId);
    expect(pairs.get('Base URL')).toBe(env.sb.baseUrl);
    expect(pairs.get('API key')).toBe(env.client.maskedKey);
    expect(pairs.get('Status')).toBe('completed');
    // the Report is the first tab; its times are date cells; its outcomes are words
    expect(wb.worksheets[0].name).toBe('Report');
    expect(wb.worksheets.slice(1).map((w) => w.name)).toContain('supplier-companies');
    let started: unknown;
    report.eachRow((row) => {
      if (row.getCell(1).value === 'Started') started = row.getCell(2).value;
    });
    expect(started).toBeInstanceOf(Date);
    expect((started as Date).toISOString()).toBe(new Date(result.startedAt).toISOString());
    let header = 0;
    report.eachRow((row, n) => {
      if (row.getCell(1).value === 'Sheet (rows)') header = n;
    });
    const heads = (report.getRow(header).values as unknown[]).slice(1);
    const rowOf = (sheet: string) => {
      let found: unknown[] = [];
      report.eachRow((row) => {
        if (row.getCell(1).value === sheet) found = (row.values as unknown[]).slice(1);
      });
      return Object.fromEntries(heads.map((h, i) => [String(h), found[i]]));
    };
    expect(rowOf('supplier-companies')).toMatchObject({ created: 1, failed: 1, total: 2 });
    expect(rowOf('silo-items')).toMatchObject({ skipped: 3, total: 3 });
    expect(rowOf('total').total).toBe(19);
    expect(heads).toContain('already existed');
    expect(heads.filter((h) => /_/.test(String(h)))).toEqual([]);

    // Results written from a results workbook reuse its columns and replace its Report.
    const twice = join(env.dir, 'results-2.xlsx');
    await writeResultsWorkbook(out, plan, result, twice, await marksOfJob(env.jobsDir, result.jobId));
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.readFile(twice);
    expect(wb2.worksheets.map((w) => w.name).filter((x) => x.startsWith('Report'))).toEqual(['Report']);
    expect(wb2.getWorksheet('supplier-companies')!.getRow(1).cellCount).toBe(8);
    expect(cells(wb2.getWorksheet('supplier-companies')!, 2, 4)).toEqual(cells(sc, 2, 4));

    // The key is nowhere in the file (only its masked form).
    const secret = env.sb.ownerKey.split('-').slice(2).join('-');
    const text = (await readFile(out)).toString('latin1');
    expect(text.includes(secret)).toBe(false);
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => expect(String(c.value)).not.toContain(secret))));
    for (const f of ['plan.json', 'journal.jsonl', 'meta.json']) {
      expect((await readFile(join(env.jobsDir, result.jobId, f), 'utf8')).includes(secret)).toBe(false);
    }
  });
});

describe('failed-rows workbook', () => {
  it('holds only the rows that did not succeed (with the mapping sheets), and re-imports once fixed', async () => {
    const out = join(env.dir, 'failed.xlsx');
    const { rows } = await writeFailedRowsWorkbook(
      input,
      plan,
      result,
      out,
      await marksOfJob(env.jobsDir, result.jobId),
    );
    expect(await sha(input)).toBe(inputHash);
    const parsed = await readTestWorkbook(out);
    expect(parsed.readable).toBe(true);
    const sheet = (n: string) => parsed.sheets.find((s) => s.name === n);
    const codes = (n: string, f = 'external_id') => sheet(n)?.rows.map((r) => r.values[f]) ?? [];
    expect(codes('supplier-companies')).toEqual(['WSC-1']);
    expect(codes('supplier-plants')).toEqual(['WSPL-1']);
    expect(codes('supplier-products')).toEqual(['WSP-1', 'WSP-3']);
    expect(codes('hazardous-substances', 'supplier_product_external_id')).toEqual(['WSP-3']);
    expect(codes('silos')).toEqual(['WSILO-1']);
    expect(codes('silo-items', 'silo_external_id')).toEqual(['WSILO-1', 'WSILO-1', 'WSILO-1']);
    expect(codes('bom', 'product_instance_external_id')).toEqual(['WPI-2', 'WPI-2', 'WPI-2', 'WPI-1']);
    expect(sheet('product-instances')).toBeUndefined();
    expect(codes('plants', 'plant_code')).toEqual(['HEID']); // mapping sheets come along
    expect(rows).toBe(1 + 1 + 2 + 1 + 1 + 3 + 4);
    expect(sheet('supplier-products')!.rows[1].values).toMatchObject({
      name: 'Klinker',
      material_code: 'MAT-UNKNOWN',
      unit: 'KG',
      train_km: 300,
      secondary_percentage: 20,
    });

    // Fix: the material code in the file, and the conflicting company on the service (same name now).
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const ws = wb.getWorksheet('supplier-products')!;
    ws.getRow(3).getCell(columnOf(ws, 'material_code')).value = 'MAT-CLINKER';
    const fixed = join(env.dir, 'fixed.xlsx');
    await wb.xlsx.writeFile(fixed);
    const other = (await env.client.supplierCompanies.findByExternalId('WSC-1'))!;
    await env.client.supplierCompanies.update(other.id, { name: 'Holcim' });

    const again = await planFile(fixed, { client: env.client });
    expect(again.summary.byAction).toEqual({ update: 1, create: 4, replace: 2 });
    expect(again.entries[0].changes).toEqual([{ field: 'country', before: null, after: 'DE' }]);
    const res = await runPlan(again, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.counts).toEqual({ updated: 1, created: 4, replaced: 2 });
    const pi2 = (await env.client.productInstances.findByExternalId('WPI-2'))!;
    expect(await env.client.bom.get(pi2.id)).toHaveLength(3);
  });
});
