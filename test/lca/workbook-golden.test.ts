/**
 * The LCA workbook read back whole — every sheet's name, column formats, conditional formatting, header and
 * cell values — for a hand-made report that fills every sheet (results, indicators, hotspots, trend, blockers, jobs,
 * breakdown, about), with unknown fields, a changed shape, a formula-looking server text and a duplicate value.
 * The snapshot was taken before the exporter was split into one builder per sheet (lca/workbook/), so it
 * pins the file the split must keep writing.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { lcaWorkbookBuffer, type InstanceLca, type LcaReport } from '../../core/lca/index.js';
import { summarize } from '../../core/lca/model.js';

function instance(id: string, unit: string | null, results: unknown[], extra: Partial<InstanceLca> = {}): InstanceLca {
  return {
    instance: {
      id,
      external_id: `PI-${id}`,
      name: null,
      plant_id: 'p-1',
      plant_code: 'PL-1',
      product_id: 'pr-1',
      product_article: `ART-${id}`,
      product_name: `Product ${id}`,
      product_unit: unit,
      produced_from: 2020,
      produced_to: null,
    },
    outcome: 'completed',
    job_status: 'completed',
    job: {
      id: `job-${id}`,
      status: 'completed',
      queued_at: '2030-01-01T00:00:00Z',
      started_at: '2030-01-01T00:00:01Z',
      finished_at: '2030-01-01T00:00:02Z',
      worker: 'w-7',
    },
    err_code: null,
    msg: null,
    explanation: null,
    action: null,
    recomputed: true,
    waited_for_running_job: false,
    results,
    response_extra: { 'response.trace': 't-1' },
    checked_at: '2030-01-01T00:00:03Z',
    ...extra,
  };
}

const value = (indicator: string, module: string, v: number | null, unit = 'kg CO2 eq', more = {}) => ({
  indicator,
  module,
  unit,
  value: v,
  ...more,
});

function goldenReport(): LcaReport {
  const a = instance('a', 'T', [
    {
      year: 2028,
      status: 'computed',
      partial_year: false,
      production_quantity: 1000,
      values: [
        value('GWP-total', 'A1-A3', 120.5),
        value('GWP-total', 'A4', 10.25),
        value('PENRT', 'A1-A3', 900, 'MJ'),
        value('GWP-fossil', 'A1-A3', 118, 'kg CO2 eq', { confidence: 0.9 }),
      ],
      blockers: [],
      breakdown: [
        { component_type: 'supplier_product', ref: 'r-cement', indicator: 'GWP-total', module: 'A1-A3', value: 100 },
        { component_type: 'elementary', ref: 'r-water', indicator: 'GWP-total', module: 'A1-A3', value: 20.5 },
      ],
      method: 'EN 15804+A2',
    },
    {
      year: 2029,
      status: 'computed',
      partial_year: false,
      production_quantity: 0,
      values: [
        value('GWP-total', 'A1-A3', 130),
        value('GWP-total', 'A1-A3', 131),
        value('GWP-total', 'A4', 12),
        value('PENRT', 'A1-A3', 950, 'MJ'),
        { module: 'C1', value: 3, note: '=HYPERLINK("http://evil")' },
      ],
      blockers: [],
      breakdown: [
        { component_type: 'supplier_product', ref: 'r-cement', indicator: 'GWP-total', module: 'A1-A3', value: 110 },
      ],
    },
    {
      year: 2030,
      status: 'blocked',
      partial_year: true,
      production_quantity: null,
      values: [value('GWP-total', 'A1-A3', 40)],
      blockers: [
        {
          type: 'missing_input',
          kind: 'production_data',
          code: null,
          err_code: 'err_missing_production',
          msg: '+cmd|calc',
          severity: 'high',
        },
      ],
      breakdown: null,
    },
  ]);
  const b = instance('b', 'M3', [
    { year: 2029, status: 'computed', partial_year: false, production_quantity: 50, summary: { total: 5 } },
    {
      year: 2031,
      status: 'blocked',
      partial_year: false,
      production_quantity: null,
      values: [],
      blockers: [{ type: 'missing_input', kind: 'production_data', code: 'PI-b', err_code: null, msg: '@x' }],
    },
  ]);
  const c = instance('c', null, [], {
    outcome: 'failed',
    job_status: 'failed',
    job: { id: 'job-c', status: 'failed', err_code: 'err_lca_failed', msg: 'broke' },
    err_code: 'err_lca_failed',
    msg: 'broke',
    explanation: 'The computation failed.',
    action: 'Try again later.',
    recomputed: false,
    waited_for_running_job: true,
    response_extra: {},
  });
  const instances = [a, b, c];
  return {
    generated_at: '2030-06-01T12:00:00.000Z',
    base_url: 'http://127.0.0.1:1',
    masked_key: 'svc-k1-****',
    selection: 'products ART-a, ART-b, ART-c',
    recompute: true,
    instances,
    summary: summarize(instances),
    aborted: { reason: 'daily_limit', err_code: 'err_daily_limit', message: 'Daily limit reached' },
    duration_ms: 12345,
    breakdown_context: {
      readable: true,
      reason: null,
      components: {
        a: [
          {
            componentType: 'supplier_product',
            ref: 'r-cement',
            externalId: 'CEM-I',
            name: 'Cement',
            supplierCompany: 'Cem AG',
            supplierPlant: 'Werk 1',
            massKg: 300,
          },
        ],
      },
      problems: ['elementary r-water: not readable (403)'],
    },
  };
}

/** Everything a reader sees of the workbook, as plain data. */
async function dump(buffer: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    for (let r = 1; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const cells: unknown[] = [];
      for (let c = 1; c <= ws.columnCount; c++) {
        const cell = row.getCell(c);
        cells.push(cell.type === ExcelJS.ValueType.Formula ? { formula: cell.formula } : (cell.value ?? null));
      }
      rows.push(cells);
    }
    const formats = (ws.columns ?? []).map((c) => c.numFmt ?? null);
    const cf = (ws as unknown as { conditionalFormattings?: { ref: string; rules: unknown[] }[] })
      .conditionalFormattings;
    return { name: ws.name, formats, conditional: cf ?? [], autoFilter: ws.autoFilter ?? null, rows };
  });
}

describe('LCA workbook, read back whole', () => {
  it('writes the same sheets, headers, formats and values as before the split into per-sheet builders', async () => {
    const { buffer, stats } = await lcaWorkbookBuffer(goldenReport(), { breakdown: true, maxExtraColumns: 3 });
    const sheets = await dump(buffer);
    expect(sheets.map((s) => s.name)).toEqual([
      'results',
      'indicators',
      'hotspots',
      'trend',
      'blockers',
      'jobs',
      'breakdown',
      'about',
    ]);
    for (const s of sheets)
      for (const row of s.rows) for (const cell of row) expect(JSON.stringify(cell) ?? '').not.toContain('"formula"');
    expect(sheets).toMatchSnapshot();
    expect(stats).toMatchSnapshot();
  });

  it('without the breakdown option and without a readable breakdown: no hotspots and no breakdown sheet', async () => {
    const r = goldenReport();
    r.breakdown_context = { readable: false, reason: 'the key may not read recipes', components: {}, problems: [] };
    const { buffer, stats } = await lcaWorkbookBuffer(r);
    const sheets = await dump(buffer);
    expect(sheets.map((s) => s.name)).toEqual(['results', 'indicators', 'trend', 'blockers', 'jobs', 'about']);
    expect(sheets).toMatchSnapshot();
    expect(stats).toMatchSnapshot();
  });
});
