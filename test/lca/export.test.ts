/**
 * The exported LCA workbook read back and checked against the API's own answers: row counts, numbers equal to
 * the service's values, empty cells where nothing is declared (never 0), blockers listed with what to do, jobs
 * with err_code and explanation, the wide sheet's formatting, the chart data; and — through a local proxy —
 * unknown fields as extra columns, a changed shape degrading to flattening, formula-looking texts as text.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, explainErrCode, type LcaResults } from '../../core/api/index.js';
import { gwpChartData, type LcaReport, runLca, selectInstances, writeLcaWorkbook } from '../../core/lca/index.js';
import {
  FAST_POLL,
  type LcaFixture,
  lcaTiming,
  makeInstance,
  makeMaterials,
  setClock,
  startLcaFixture,
} from './fixture.js';
import { withoutFloatNoise as noiseless } from '../../core/lca/precision.js';
import { startLcaProxy } from './proxy.js';

interface ApiValue {
  indicator: string;
  module: string;
  unit: string;
  value: number;
}
interface ApiElement {
  year: number;
  status: string;
  partial_year: boolean;
  values: ApiValue[];
  blockers: { type: string; kind: string; code: string; msg: string }[];
}

let f: LcaFixture;
let dir: string;
let report: LcaReport;
const api = new Map<string, LcaResults>(); // external_id → the service's answer after the run
const CODES = ['EX-FAIL', 'EX-T', 'EX-N'];

const elements = (code: string) => api.get(code)!.results as ApiElement[];

type Row = Record<string, ExcelJS.CellValue>;
function sheetRows(ws: ExcelJS.Worksheet): { header: string[]; rows: Row[]; cells: ExcelJS.Cell[][] } {
  const header = (ws.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const rows: Row[] = [];
  const cells: ExcelJS.Cell[][] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const o: Row = {};
    const cs: ExcelJS.Cell[] = [];
    header.forEach((h, i) => {
      const c = row.getCell(i + 1);
      o[h] = c.value ?? null;
      cs.push(c);
    });
    rows.push(o);
    cells.push(cs);
  }
  return { header, rows, cells };
}

async function readXlsx(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

/** Text of every worksheet XML in the file (to prove no formula was written). */
function worksheetXml(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (e: yauzl.Entry) => {
        if (!/^xl\/worksheets\/.*\.xml$/.test(e.fileName)) return zip.readEntry();
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          s.on('data', (d: Buffer) => (out += d.toString('utf8')));
          s.on('end', () => zip.readEntry());
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lca-export-'));
  f = await startLcaFixture('empty');
  await setClock(f, '2030-06-15T12:00:00Z');
  await lcaTiming(f, { queued_ms: 0, processing_ms: 60 });
  const m = await makeMaterials(f, 'PL-MUC', 'EX');
  // with transport (A1-A3 and A4), three computed years, the current one partial
  await makeInstance(f, {
    external_id: 'EX-T',
    article: 'ART-20030',
    plantCode: 'PL-MUC',
    from: 2028,
    to: null,
    bom: [
      { ref: m.cement, mass_kg: 320 },
      { ref: m.sand, mass_kg: 1850 },
    ],
    production: { 2028: 1000, 2029: 1100, 2030: 400 },
  });
  // no transport (A1-A3 only): 2029 computed, 2030 blocked (data missing), 2031 future
  await makeInstance(f, {
    external_id: 'EX-N',
    article: 'ART-20030',
    plantCode: 'PL-MUC',
    from: 2029,
    to: 2031,
    bom: [
      { ref: m.sand, mass_kg: 1900 },
      { ref: m.water, mass_kg: 160 },
    ],
    production: { 2029: 800 },
  });
  await makeInstance(f, {
    external_id: 'EX-FAIL',
    article: 'ART-20030',
    plantCode: 'PL-MUC',
    from: 2029,
    to: 2029,
    bom: [{ ref: m.sand, mass_kg: 10 }],
    production: { 2029: 1 },
  });
  await lcaTiming(f, { fail_next: 'err_lca_allocation_data_incomplete' });
  const sel = await selectInstances(f.client, { by: 'instances', externalIds: CODES });
  report = await runLca(f.client, sel.instances, {
    recompute: true,
    concurrency: 1,
    ...FAST_POLL,
    selection: sel.description,
  });
  for (const i of report.instances) api.set(i.instance.external_id!, await f.client.lca.results(i.instance.id));
});
afterAll(async () => {
  await f?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('LCA workbook export', () => {
  let wb: ExcelJS.Workbook;
  let path: string;

  beforeAll(async () => {
    path = join(dir, 'lca.xlsx');
    const stats = await writeLcaWorkbook(report, path);
    // the owner key may read the per-source breakdown: left out unless asked for, and said so
    expect(stats.notes).toHaveLength(1);
    expect(stats.notes[0]).toMatch(/breakdown/);
    wb = await readXlsx(path);
  });

  it('has the sheets results, gwp, trend, blockers, jobs and about (hotspots only once the breakdown is resolved to names)', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual(['results', 'indicators', 'trend', 'blockers', 'jobs', 'about']);
    expect(report.summary).toMatchObject({ total: 3, completed: 2, failed: 1 });
  });

  it('results: one row per instance × year × indicator × module, values equal to the API, empty where undeclared', () => {
    const { header, rows, cells } = sheetRows(wb.getWorksheet('results')!);
    expect(header.slice(0, 11)).toEqual([
      'product_article',
      'product_name',
      'instance_external_id',
      'plant_code',
      'year',
      'partial_year',
      'status',
      'indicator',
      'module',
      'value',
      'unit',
    ]);
    // the (indicator, module) pairs the service declared anywhere in the export
    const pairs = new Set<string>();
    let declared = 0;
    for (const code of CODES) {
      for (const el of elements(code)) {
        for (const v of el.values) {
          pairs.add(`${v.indicator}|${v.module}`);
          declared++;
        }
      }
    }
    expect(pairs.size).toBe(26); // 13 indicators × A1-A3, A4
    const yearElements = CODES.reduce((n, c) => n + elements(c).length, 0);
    expect(yearElements).toBe(6); // EX-T 3 + EX-N 3 + EX-FAIL 0 (failed job: no results)
    expect(rows).toHaveLength(yearElements * pairs.size);

    // every API value is in its row, equal
    for (const code of CODES) {
      for (const el of elements(code)) {
        for (const v of el.values) {
          const hit = rows.filter(
            (r) =>
              r.instance_external_id === code &&
              r.year === el.year &&
              r.indicator === v.indicator &&
              r.module === v.module,
          );
          expect(hit).toHaveLength(1);
          expect(hit[0].value).toBe(v.value === null ? null : noiseless(v.value));
          expect(hit[0].unit).toBe(v.unit);
          expect(hit[0].partial_year).toBe(el.partial_year ? 'yes' : 'no');
        }
      }
    }
    // nothing else has a value: undeclared cells are empty, never 0
    const withValue = rows.filter((r) => r.value !== null);
    expect(withValue).toHaveLength(declared);
    const a4OfNoTransport = rows.filter((r) => r.instance_external_id === 'EX-N' && r.module === 'A4');
    expect(a4OfNoTransport).toHaveLength(3 * 13);
    expect(a4OfNoTransport.every((r) => r.value === null)).toBe(true);
    expect(rows.filter((r) => r.status === 'blocked').every((r) => r.value === null)).toBe(true);
    expect(
      rows.some(
        (r) => r.instance_external_id === 'EX-T' && r.module === 'A4' && typeof r.value === 'number' && r.value > 0,
      ),
    ).toBe(true);
    // numbers are numbers with a number format; instance columns are filled
    const vi = header.indexOf('value');
    const numeric = cells.find((c) => typeof c[vi].value === 'number')!;
    expect(numeric[vi].numFmt).toBe('0.000E+00');
    expect(rows.every((r) => r.product_article === 'ART-20030' && r.plant_code === 'PL-MUC')).toBe(true);
  });

  it('gwp: one row per instance × year, GWP-total per module first, colour scales', () => {
    const ws = wb.getWorksheet('indicators')!;
    const { header, rows } = sheetRows(ws);
    expect(rows).toHaveLength(6);
    expect(header.slice(8, 10)).toEqual(['GWP-total A1-A3 [kg CO2 eq.]', 'GWP-total A4 [kg CO2 eq.]']);
    expect(header).toHaveLength(8 + 26);
    for (const code of ['EX-T', 'EX-N']) {
      for (const el of elements(code)) {
        const row = rows.find((r) => r.instance_external_id === code && r.year === el.year)!;
        const a1 = el.values.find((v) => v.indicator === 'GWP-total' && v.module === 'A1-A3');
        const a4 = el.values.find((v) => v.indicator === 'GWP-total' && v.module === 'A4');
        expect(row['GWP-total A1-A3 [kg CO2 eq.]']).toBe(typeof a1?.value === 'number' ? noiseless(a1.value) : null);
        expect(row['GWP-total A4 [kg CO2 eq.]']).toBe(typeof a4?.value === 'number' ? noiseless(a4.value) : null);
        expect(row.status).toBe(el.status);
      }
    }
    const cf = (ws as unknown as { conditionalFormattings: ExcelJS.ConditionalFormattingOptions[] })
      .conditionalFormattings;
    const scales = cf.map((c) => ({
      ref: c.ref,
      type: c.rules[0].type,
      colors: (c.rules[0] as ExcelJS.ColorScaleRuleType).color?.length,
    }));
    expect(scales).toHaveLength(26);
    expect(scales.every((x) => x.type === 'colorScale')).toBe(true);
    // GWP-total (columns I, J): white → red; the others green → yellow → red
    expect(scales.filter((x) => x.colors === 2).map((x) => x.ref)).toEqual(['I2:I7', 'J2:J7']);
  });

  it('blockers: every blocker of the API, with type, kind, code and what the user should do', () => {
    const { rows } = sheetRows(wb.getWorksheet('blockers')!);
    const expected = CODES.flatMap((c) =>
      elements(c).flatMap((el) => el.blockers.map((b) => ({ c, year: el.year, b }))),
    );
    expect(expected).toHaveLength(2);
    expect(rows).toHaveLength(expected.length);
    for (const { c, year, b } of expected) {
      const row = rows.find((r) => r.instance_external_id === c && r.year === year)!;
      expect(row).toMatchObject({ type: 'missing_input', kind: 'production_data', code: b.code, message: b.msg });
    }
    const past = rows.find((r) => r.year === 2030)!;
    const future = rows.find((r) => r.year === 2031)!;
    expect(past.needs_action).toBe('yes');
    expect(String(past.what_to_do)).toMatch(/enter the production data .* for 2030 in the web interface/i);
    expect(future.needs_action).toBe('no');
    expect(String(future.what_to_do)).toMatch(/future production year/);
  });

  it('jobs: one row per instance with outcome, status, err_code, the catalog explanation and job times', () => {
    const { rows } = sheetRows(wb.getWorksheet('jobs')!);
    expect(rows.map((r) => r.instance_external_id)).toEqual(CODES);
    const failed = rows[0];
    expect(failed).toMatchObject({
      outcome: 'failed',
      job_status: 'failed',
      err_code: 'err_lca_allocation_data_incomplete',
      explanation: explainErrCode('err_lca_allocation_data_incomplete').explanation,
    });
    const ok = rows[1];
    const job = api.get('EX-T')!.job as Record<string, string>;
    expect(ok).toMatchObject({
      outcome: 'completed',
      job_status: 'completed',
      err_code: null,
      job_id: job.id,
      finished_at: job.finished_at,
      years_computed: 3,
      years_blocked: 0,
      recomputed: 'yes',
    });
    expect(rows[2]).toMatchObject({ years_computed: 1, years_blocked: 2 });
  });

  it('breakdown (when asked for): per-source rows that add up to the API totals', async () => {
    const out = join(dir, 'breakdown.xlsx');
    const stats = await writeLcaWorkbook(report, out, { breakdown: true });
    expect(stats.notes).toEqual([]);
    const { rows } = sheetRows((await readXlsx(out)).getWorksheet('breakdown')!);
    expect(rows.length).toBe(stats.rows.breakdown);
    // EX-T: 2 components × 3 years × (13 A1-A3 + 13 A4 for the cement only)
    expect(rows.filter((r) => r.instance_external_id === 'EX-T')).toHaveLength(3 * (2 * 13 + 13));
    for (const el of elements('EX-T')) {
      for (const v of el.values) {
        const parts = rows.filter(
          (r) =>
            r.instance_external_id === 'EX-T' &&
            r.year === el.year &&
            r.indicator === v.indicator &&
            r.module === v.module,
        );
        expect(parts.reduce((s, r) => s + (r.value as number), 0)).toBeCloseTo(v.value, 6);
      }
    }
  });

  it('about: masked key only, counts', () => {
    const { rows } = sheetRows(wb.getWorksheet('about')!);
    const text = JSON.stringify(rows);
    expect(text).toContain(f.client.maskedKey);
    expect(text).not.toContain(f.ownerKey);
  });

  it('chart data: GWP-total per year per instance, partial flags, gaps (null) where nothing is declared', () => {
    const chart = JSON.parse(JSON.stringify(gwpChartData(report))) as ReturnType<typeof gwpChartData>;
    expect(chart.unit).toBe('kg CO2 eq.');
    expect(chart.years).toEqual([2028, 2029, 2030, 2031]);
    expect(chart.series.map((s) => s.externalId)).toEqual(CODES);
    expect(chart.series[0].points).toEqual([]);
    const t = chart.series[1];
    for (const el of elements('EX-T')) {
      const sum = el.values.filter((v) => v.indicator === 'GWP-total').reduce((s, v) => s + v.value, 0);
      const p = t.points.find((x) => x.year === el.year)!;
      expect(p.value).toBeCloseTo(sum, 9);
      expect(p.partial).toBe(el.partial_year);
    }
    expect(t.points.find((p) => p.year === 2030)!.partial).toBe(true);
    expect(chart.series[2].points.map((p) => [p.year, p.value === null])).toEqual([
      [2029, false],
      [2030, true],
      [2031, true],
    ]);
  });
});

describe('LCA export of answers the exporter does not know (through a local proxy)', () => {
  it('unknown fields become columns, a changed shape degrades to flattening, formula-looking texts stay text', async () => {
    const nId = report.instances.find((i) => i.instance.external_id === 'EX-N')!.instance.id;
    const proxy = await startLcaProxy(f.baseUrl, (body, instanceId) => {
      const results = (body.results as Record<string, unknown>[]).map((el) => {
        const e: Record<string, unknown> = { ...el, extra: { foo: { bar: 'baz' } }, quality: 'A' };
        e.values = (el.values as Record<string, unknown>[]).map((v) => ({ ...v, uncertainty_pct: 5 }));
        e.blockers = (el.blockers as Record<string, unknown>[]).map((b) => ({
          ...b,
          msg: '=HYPERLINK("http://example.invalid","click")',
          hint: '+SUM(1,2)',
        }));
        if (instanceId === nId) {
          e.impacts = e.values; // the service renamed `values`
          delete e.values;
        }
        return e;
      });
      return { ...body, results, schema: 'v2.1', job: { ...(body.job as object), worker: { region: 'eu-1' } } };
    });
    const client = createApiClient({ baseUrl: proxy.baseUrl, apiKey: f.ownerKey });
    try {
      const sel = await selectInstances(client, { by: 'instances', externalIds: ['EX-T', 'EX-N'] });
      const r = await runLca(client, sel.instances, { recompute: false, ...FAST_POLL });
      const out = join(dir, 'extra.xlsx');
      const stats = await writeLcaWorkbook(r, out);
      expect(stats.notes.join(' ')).toMatch(/without a "values" list/);
      const wb = await readXlsx(out);

      const res = sheetRows(wb.getWorksheet('results')!);
      expect(res.header).toEqual(
        expect.arrayContaining(['extra.foo.bar', 'quality', 'values[].uncertainty_pct', 'impacts']),
      );
      const tRows = res.rows.filter((x) => x.instance_external_id === 'EX-T');
      expect(tRows).toHaveLength(3 * 26);
      expect(tRows.every((x) => x['extra.foo.bar'] === 'baz' && x.quality === 'A')).toBe(true);
      expect(tRows.every((x) => x['values[].uncertainty_pct'] === 5)).toBe(true);
      // changed shape: one row per element of EX-N, its renamed list kept as JSON text, no value invented
      const nRows = res.rows.filter((x) => x.instance_external_id === 'EX-N');
      expect(nRows.map((x) => [x.year, x.status, x.value])).toEqual([
        [2029, 'computed', null],
        [2030, 'blocked', null],
        [2031, 'blocked', null],
      ]);
      const impacts = JSON.parse(String(nRows[0].impacts)) as ApiValue[];
      expect(impacts.find((v) => v.indicator === 'GWP-total')?.value).toBe(
        elements('EX-N')[0].values.find((v) => v.indicator === 'GWP-total')?.value,
      );

      const jobs = sheetRows(wb.getWorksheet('jobs')!);
      expect(jobs.header).toEqual(expect.arrayContaining(['job.worker.region', 'response.schema']));
      expect(jobs.rows.every((x) => x['job.worker.region'] === 'eu-1' && x['response.schema'] === 'v2.1')).toBe(true);

      const bl = sheetRows(wb.getWorksheet('blockers')!);
      expect(bl.rows.length).toBe(2);
      const mi = bl.header.indexOf('message');
      const hi = bl.header.indexOf('hint');
      for (const cells of bl.cells) {
        expect(cells[mi].type).toBe(ExcelJS.ValueType.String);
        expect(cells[mi].value).toBe('=HYPERLINK("http://example.invalid","click")');
        expect(cells[hi].value).toBe('+SUM(1,2)');
        expect(cells[hi].type).toBe(ExcelJS.ValueType.String);
      }
      expect(await worksheetXml(out)).not.toMatch(/<f[ >]/);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
