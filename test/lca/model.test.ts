/**
 * The tolerant reading of results elements and the exporter's fallbacks, on hand-made answers (shapes the
 * sandbox does not produce): wrong types kept as extra fields, `values` missing, a declared null value, very
 * long texts, more unknown fields than columns.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  lcaWorkbookBuffer,
  flattenInto,
  gwpChartData,
  readResultElement,
  serviceCurrentYear,
  type InstanceLca,
  type LcaReport,
} from '../../core/lca/index.js';
import { summarize } from '../../core/lca/model.js';

function report(results: unknown[], job: Record<string, unknown> = { status: 'completed' }): LcaReport {
  const inst: InstanceLca = {
    instance: {
      id: 'i-1',
      external_id: 'PI-1',
      name: null,
      plant_id: null,
      plant_code: 'PL',
      product_id: null,
      product_article: 'ART',
      product_name: 'P',
      produced_from: 2020,
      produced_to: null,
    },
    outcome: 'completed',
    job_status: String(job.status),
    job,
    err_code: null,
    msg: null,
    explanation: null,
    action: null,
    recomputed: true,
    waited_for_running_job: false,
    results,
    response_extra: {},
    checked_at: null,
  };
  return {
    generated_at: '2030-01-01T00:00:00.000Z',
    base_url: 'http://x',
    masked_key: 'svc-k-****',
    selection: 's',
    recompute: true,
    instances: [inst],
    summary: summarize([inst]),
    aborted: null,
    duration_ms: 1,
  };
}

async function build(r: LcaReport, o: Parameters<typeof lcaWorkbookBuffer>[1] = {}) {
  const { buffer, stats } = await lcaWorkbookBuffer(r, o);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return { workbook, stats };
}

function rowsOf(ws: ExcelJS.Worksheet): Record<string, ExcelJS.CellValue>[] {
  const header = (ws.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const out: Record<string, ExcelJS.CellValue>[] = [];
  for (let r = 2; r <= ws.rowCount; r++)
    out.push(Object.fromEntries(header.map((h, i) => [h, ws.getRow(r).getCell(i + 1).value ?? null])));
  return out;
}

describe('reading results elements tolerantly', () => {
  it('keeps known fields, and fields of the wrong type or unknown ones as flattened extras', () => {
    const y = readResultElement({
      year: '2029',
      status: 'computed',
      partial_year: 'no',
      production_quantity: 5,
      values: [{ indicator: 'GWP-total', module: 'A1-A3', unit: 'kg CO2 eq.', value: '12.5', source: { db: 'x' } }, 7],
      blockers: [{ type: 'missing_input', kind: 'production_data', code: 'c', msg: 'm', extra: [1, 2] }],
      meta: { a: { b: null }, list: [{ k: 1 }], tags: ['x', 'y'], empty: {} },
    });
    expect(y).toMatchObject({ year: null, status: 'computed', partial_year: null, production_quantity: 5 });
    expect(y.extra).toEqual({
      year: '2029',
      partial_year: 'no',
      'meta.a.b': null,
      'meta.list': '[{"k":1}]',
      'meta.tags': 'x; y',
      'meta.empty': '{}',
    });
    expect(y.values![0]).toMatchObject({
      indicator: 'GWP-total',
      value: null,
      extra: { 'values[].value': '12.5', 'values[].source.db': 'x' },
    });
    expect(y.values![1]).toMatchObject({ indicator: null, value: null, extra: { 'values[]': 7 } });
    expect(y.blockers[0]).toMatchObject({ type: 'missing_input', code: 'c', extra: { extra: '1; 2' } });
  });

  it('marks an element without a values list (changed shape) as values: null and keeps the renamed field', () => {
    const y = readResultElement({ year: 2029, status: 'computed', impacts: [{ indicator: 'GWP-total', value: 1 }] });
    expect(y.values).toBeNull();
    expect(y.extra.impacts).toBe('[{"indicator":"GWP-total","value":1}]');
    expect(readResultElement('weird').extra).toEqual({ element: 'weird' });
  });

  it("the service's current year: the partial element, else the job's clock", () => {
    expect(serviceCurrentYear([readResultElement({ year: 2031, partial_year: true })], null)).toBe(2031);
    expect(serviceCurrentYear([], { finished_at: '2033-02-01T00:00:00Z' })).toBe(2033);
  });

  it('flattens by path', () => {
    expect(flattenInto({}, { extra: { foo: { bar: 1 } } }, '')).toEqual({ 'extra.foo.bar': 1 });
  });
});

describe('exporter fallbacks', () => {
  it('a declared null value is an empty cell; a value entry without indicator is kept; long texts are cut to fit', async () => {
    const long = 'x'.repeat(40_000);
    const { workbook, stats } = await build(
      report([
        {
          year: 2029,
          status: 'computed',
          partial_year: false,
          production_quantity: 1,
          values: [
            { indicator: 'GWP-total', module: 'A1-A3', unit: 'kg CO2 eq.', value: null },
            { indicator: 'ODP', module: 'A1-A3', unit: 'kg CFC-11 eq.', value: 0 },
            { module: 'A1-A3', value: 3, label: 'mystery' },
          ],
          blockers: [],
          note: long,
        },
      ]),
    );
    const rows = rowsOf(workbook.getWorksheet('results')!);
    expect(rows.map((r) => [r.indicator, r.value])).toEqual([
      ['GWP-total', null],
      ['ODP', 0],
      [null, 3],
    ]);
    expect(rows[2]['values[].label']).toBe('mystery');
    expect(String(rows[0].note).length).toBe(32_767);
    expect(stats.notes.join(' ')).toMatch(/cut/);
    const chart = gwpChartData(
      report([{ year: 2029, values: [{ indicator: 'GWP-total', module: 'A1-A3', value: null }] }]),
    );
    expect(chart.series[0].points[0].value).toBeNull();
  });

  it('more unknown fields than columns: the rest go to more_fields as JSON, nothing dropped', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`f${k}`, k]));
    const { workbook, stats } = await build(
      report([{ year: 2029, status: 'computed', values: [], blockers: [], ...many }]),
      { maxExtraColumns: 10 },
    );
    const [row] = rowsOf(workbook.getWorksheet('results')!);
    expect(stats.extraColumns.results).toHaveLength(10);
    expect(JSON.parse(String(row.more_fields))).toEqual({ f10: 10, f11: 11 });
    expect(stats.notes.join(' ')).toMatch(/more_fields/);
  });
});
