/**
 * LCA results as practitioners read them, against the sandbox: values per declared unit (value ÷ the year's
 * production quantity) for every computed year, modules apart and summed, the indicator data file, hotspots
 * named and summing to the year's total, hotspots without view:recipes, and the trend against the previous
 * computed year.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../core/api/index.js';
import {
  BREAKDOWN_NO_SCOPE,
  CORE_INDICATORS,
  INDICATOR_INFO,
  NO_QUANTITY_NOTE,
  hotspotRows,
  hotspotSlices,
  lcaChartData,
  moduleValue,
  perDeclaredUnit,
  readResults,
  resolveBreakdownContext,
  runLca,
  selectInstances,
  topContributors,
  trendRows,
  writeLcaWorkbook,
  type LcaReport,
} from '../../core/lca/index.js';
import {
  FAST_POLL,
  lcaTiming,
  makeInstance,
  makeMaterials,
  setClock,
  startLcaFixture,
  type LcaFixture,
} from './fixture.js';
import { difference, withoutFloatNoise as noiseless } from '../../core/lca/precision.js';

let f: LcaFixture;
let report: LcaReport;
const QTY: Record<string, Record<number, number>> = {
  'AN-T': { 2028: 1000, 2029: 1250, 2030: 400 },
  'AN-N': { 2029: 800 },
};
const MASS = { cement: 320, sand: 1850, water: 160 };

beforeAll(async () => {
  f = await startLcaFixture('empty');
  await setClock(f, '2030-06-15T12:00:00Z');
  await lcaTiming(f, { queued_ms: 0, processing_ms: 60 });
  const m = await makeMaterials(f, 'PL-MUC', 'AN');
  await makeInstance(f, {
    external_id: 'AN-T',
    article: 'ART-20030',
    plantCode: 'PL-MUC',
    from: 2027,
    to: null,
    bom: [
      { ref: m.cement, mass_kg: MASS.cement },
      { ref: m.sand, mass_kg: MASS.sand },
      { ref: m.water, mass_kg: MASS.water },
    ],
    production: QTY['AN-T'],
  });
  await makeInstance(f, {
    external_id: 'AN-N',
    article: 'ART-20030',
    plantCode: 'PL-MUC',
    from: 2029,
    to: 2031,
    bom: [{ ref: m.sand, mass_kg: 1900 }],
    production: QTY['AN-N'],
  });
  const sel = await selectInstances(f.client, { by: 'instances', externalIds: ['AN-T', 'AN-N'] });
  report = await runLca(f.client, sel.instances, { recompute: true, ...FAST_POLL });
  report.breakdown_context = await resolveBreakdownContext(f.client, report);
});
afterAll(() => f?.close());

const inst = (code: string) => report.instances.find((i) => i.instance.external_id === code)!;

describe('per declared unit', () => {
  it('the instance carries the product unit; per-unit values equal value ÷ the quantity written, for every computed year', () => {
    expect(inst('AN-T').instance.product_unit).toBe('M3');
    let checked = 0;
    for (const code of ['AN-T', 'AN-N']) {
      for (const y of readResults(inst(code).results)) {
        if (y.status !== 'computed') continue;
        const q = QTY[code][y.year!];
        expect(q, `${code} ${y.year}`).toBeDefined();
        for (const v of y.values!) {
          expect(perDeclaredUnit(v.value, y.production_quantity).value).toBe(noiseless(v.value! / q));
          checked++;
        }
      }
    }
    expect(checked).toBe(3 * 26 + 13); // AN-T: 3 years × 13 indicators × 2 modules; AN-N: 1 year × 13 × A1-A3
  });

  it('the chart defaults to GWP-total per declared unit (m³) and gives any indicator; no quantity → a gap with a note', () => {
    const c = lcaChartData(report);
    expect(c).toMatchObject({ indicator: 'GWP-total', basis: 'per_unit', modules: 'A1-A4', unit: 'kg CO2 eq.' });
    const t = c.series.find((s) => s.externalId === 'AN-T')!;
    expect(t.declaredUnit).toBe('m³');
    for (const y of readResults(inst('AN-T').results)) {
      const p = t.points.find((x) => x.year === y.year)!;
      if (y.status !== 'computed') {
        expect(p.value).toBeNull();
        continue;
      }
      const total = moduleValue(y.values, 'GWP-total', 'A1-A4').value!;
      expect(p.value).toBe(total / QTY['AN-T'][y.year!]);
      expect(p.partial).toBe(y.year === 2030);
    }
    const adpf = lcaChartData(report, { indicator: 'ADPF', basis: 'total', modules: 'A4' });
    expect(adpf.unit).toBe('MJ');
    expect(adpf.nameDe).toMatch(/fossile/);
    const y2029 = readResults(inst('AN-T').results).find((y) => y.year === 2029)!;
    expect(adpf.series[0].points.find((p) => p.year === 2029)?.value).toBe(
      noiseless(y2029.values!.find((v) => v.indicator === 'ADPF' && v.module === 'A4')!.value!),
    );
    expect(perDeclaredUnit(12.5, null)).toEqual({ value: null, note: NO_QUANTITY_NOTE });
    expect(perDeclaredUnit(null, 10)).toEqual({ value: null, note: null });
  });

  it('modules apart and summed on request, saying what a sum holds', () => {
    const t = readResults(inst('AN-T').results).find((y) => y.year === 2029)!;
    const a13 = moduleValue(t.values, 'GWP-total', 'A1-A3');
    const a4 = moduleValue(t.values, 'GWP-total', 'A4');
    const sum = moduleValue(t.values, 'GWP-total', 'A1-A4');
    expect(a4.value).toBeGreaterThan(0);
    expect(sum).toEqual({ value: a13.value! + a4.value!, modules: ['A1-A3', 'A4'], missing: [] });
    const n = readResults(inst('AN-N').results).find((y) => y.year === 2029)!;
    expect(moduleValue(n.values, 'GWP-total', 'A1-A4')).toMatchObject({ modules: ['A1-A3'], missing: ['A4'] });
    const chart = lcaChartData(report, { basis: 'total' });
    expect(chart.series.find((s) => s.externalId === 'AN-N')!.points.find((p) => p.year === 2029)!.note).toMatch(
      /A4 not declared/,
    );
  });

  it('the indicator data file lists the 13 core indicators with English and German names and units', () => {
    expect(CORE_INDICATORS).toHaveLength(13);
    for (const i of INDICATOR_INFO) {
      expect(i.name_en.length).toBeGreaterThan(3);
      expect(i.name_de.length).toBeGreaterThan(3);
      expect(i.unit.length).toBeGreaterThan(0);
      expect(i.definition_en.length).toBeGreaterThan(10);
    }
    // the units the service declares are the data file's
    for (const v of readResults(inst('AN-T').results).find((y) => y.year === 2029)!.values!)
      expect(INDICATOR_INFO.find((i) => i.code === v.indicator)?.unit).toBe(v.unit);
  });
});

describe('hotspots', () => {
  it('name every component with type, code, name, supplier company and plant, mass; sum to the year total', () => {
    const rows = hotspotRows(report);
    const t = rows.filter((r) => r.instanceId === inst('AN-T').instance.id);
    expect(new Set(t.map((r) => r.year))).toEqual(new Set([2028, 2029, 2030]));
    for (const r of t) {
      expect(r.component.componentType).toBe('supplier_product');
      expect(r.component.externalId).toMatch(/^AN-(CEM|SAND|WATER)$/);
      expect(r.component.name).toBe(`AN ${r.component.externalId!.slice(3)}`);
      expect(r.component.supplierCompany).toBe('AN Zement GmbH');
      expect(r.component.supplierPlant).toBe('AN Werk');
      const code = r.component.externalId!.slice(3);
      expect(r.component.massKg).toBe(code === 'CEM' ? MASS.cement : code === 'SAND' ? MASS.sand : MASS.water);
      expect(r.perDeclaredUnit.value).toBe(noiseless(r.value / QTY['AN-T'][r.year]));
    }
    // per (instance, year, indicator, module): Σ values = the year's total, Σ shares = 1 (within rounding)
    const groups = new Map<string, { sum: number; share: number; total: number }>();
    for (const r of rows) {
      const k = `${r.instanceId}|${r.year}|${r.indicator}|${r.module}`;
      const g = groups.get(k) ?? { sum: 0, share: 0, total: r.yearTotal! };
      g.sum += r.value;
      g.share += r.share ?? 0;
      groups.set(k, g);
    }
    expect(groups.size).toBe(3 * 26 + 13);
    for (const [k, g] of groups) {
      expect(Math.abs(g.sum - g.total), k).toBeLessThanOrEqual(Math.abs(g.total) * 1e-9 + 1e-15);
      if (g.total !== 0) expect(g.share, k).toBeCloseTo(1, 9);
    }
  });

  it('contribution slices (top n + rest) and top contributors across the selection', () => {
    const rows = hotspotRows(report);
    const id = inst('AN-T').instance.id;
    const slices = hotspotSlices(rows, {
      instanceId: id,
      year: 2029,
      indicator: 'GWP-total',
      modules: 'A1-A4',
      top: 2,
    });
    expect(slices).toHaveLength(3);
    expect(slices[0].label).toMatch(/^AN CEM \(AN-CEM\) · AN Zement GmbH, AN Werk$/);
    expect(slices[2]).toMatchObject({ component: null, label: '1 other component' });
    const total = moduleValue(
      readResults(inst('AN-T').results).find((y) => y.year === 2029)!.values,
      'GWP-total',
      'A1-A4',
    ).value!;
    expect(slices.reduce((s, x) => s + x.value, 0)).toBeCloseTo(total, 6);
    expect(slices.reduce((s, x) => s + x.share!, 0)).toBeCloseTo(1, 9);
    const top = topContributors(rows, { indicator: 'GWP-total', modules: 'A1-A3', year: 2029 });
    const sand = top.find((x) => x.component.externalId === 'AN-SAND')!;
    expect(sand.instances).toBe(2); // sand is in both instances
    const sandRows = rows.filter(
      (r) =>
        r.year === 2029 && r.indicator === 'GWP-total' && r.module === 'A1-A3' && r.component.externalId === 'AN-SAND',
    );
    expect(sand.value).toBeCloseTo(
      sandRows.reduce((s, r) => s + r.value, 0),
      9,
    );
  });

  it('without view:recipes the breakdown is missing and the context says why', async () => {
    const k = await f.ctl<{ key: string }>('POST', '/__sandbox/keys', { scopes: ['view:products', 'view:materials'] });
    const client = createApiClient({ baseUrl: f.baseUrl, apiKey: k.key });
    try {
      const sel = await selectInstances(client, { by: 'instances', externalIds: ['AN-T'] });
      const r = await runLca(client, sel.instances, { ...FAST_POLL });
      expect(readResults(r.instances[0].results).every((y) => y.breakdown === null)).toBe(true);
      r.breakdown_context = await resolveBreakdownContext(client, r);
      expect(r.breakdown_context).toMatchObject({ readable: false, reason: BREAKDOWN_NO_SCOPE });
      expect(hotspotRows(r)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('trend', () => {
  it('change against the previous computed year, absolute and %, partial years marked', () => {
    const rows = trendRows(report).filter(
      (r) => r.instanceId === inst('AN-T').instance.id && r.indicator === 'GWP-total' && r.modules === 'A1-A3',
    );
    const v = (year: number) =>
      readResults(inst('AN-T').results)
        .find((y) => y.year === year)!
        .values!.find((x) => x.indicator === 'GWP-total' && x.module === 'A1-A3')!.value!;
    expect(rows.map((r) => [r.year, r.previousYear, r.partial])).toEqual([
      [2028, null, false],
      [2029, 2028, false],
      [2030, 2029, true],
    ]);
    expect(rows[0].changeAbs).toBeNull();
    expect(rows[1].changeAbs).toBeCloseTo(v(2029) - v(2028), 9);
    expect(rows[1].changePct).toBeCloseTo(25, 9); // 1250 vs 1000 m³, same BOM
    expect(rows[2].changePct).toBeCloseTo((400 / 1250 - 1) * 100, 9);
    // same BOM every year: the value per m³ does not change
    // exactly 0, never float noise such as 1.1e-13 or -0
    for (const r of rows.slice(1)) {
      expect(Object.is(r.changePerUnitAbs, 0), String(r.changePerUnitAbs)).toBe(true);
      expect(Object.is(r.changePerUnitPct, 0), String(r.changePerUnitPct)).toBe(true);
    }
    // A1-A4 only where both modules are declared; AN-N (no transport) has none, never a silent mix
    const all = trendRows(report);
    expect(all.some((r) => r.instanceId === inst('AN-N').instance.id && r.modules === 'A1-A4')).toBe(false);
    expect(all.some((r) => r.instanceId === inst('AN-T').instance.id && r.modules === 'A1-A4')).toBe(true);
  });
});

describe('LCA workbook: per declared unit, hotspots, trend, about', () => {
  type Row = Record<string, unknown>;
  const sheet = (wb: ExcelJS.Workbook, name: string): { header: string[]; rows: Row[] } => {
    const ws = wb.getWorksheet(name)!;
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const rows: Row[] = [];
    for (let r = 2; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const o: Row = {};
      header.forEach((h, k) => (o[h] = row.getCell(k + 1).value ?? null));
      rows.push(o);
    }
    return { header, rows };
  };
  let wb: ExcelJS.Workbook;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lca-views-'));
    const out = join(dir, 'lca.xlsx');
    await writeLcaWorkbook(report, out);
    wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes hotspots and trend sheets when the breakdown is readable', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'results',
      'indicators',
      'hotspots',
      'trend',
      'blockers',
      'jobs',
      'about',
    ]);
  });

  it('results: declared unit and value per declared unit beside every value (full precision), a note where no quantity', () => {
    const { header, rows } = sheet(wb, 'results');
    expect(header.slice(9, 15)).toEqual([
      'value',
      'unit',
      'production_quantity',
      'declared_unit',
      'value_per_declared_unit',
      'per_declared_unit_note',
    ]);
    let computed = 0;
    for (const r of rows) {
      const q = QTY[r.instance_external_id as string][r.year as number];
      if (r.status === 'computed' && r.value !== null) {
        expect(r.declared_unit).toBe('m³');
        expect(r.value_per_declared_unit).toBe(noiseless((r.value as number) / q));
        computed++;
      } else {
        expect(r.value_per_declared_unit).toBeNull();
      }
    }
    expect(computed).toBe(3 * 26 + 13);
  });

  it('hotspots: one row per instance × year × component × indicator × module, with names; values sum to the year total', () => {
    const { rows } = sheet(wb, 'hotspots');
    expect(rows).toHaveLength(hotspotRows(report).length);
    expect(rows).toHaveLength(3 * (3 * 13 + 13) + 13); // AN-T: 3 components in A1-A3, cement also in A4; AN-N: sand
    const sums = new Map<string, { sum: number; total: number; share: number }>();
    for (const r of rows) {
      expect(r.component_type).toBe('supplier_product');
      expect(r.component_name).toMatch(/^AN (CEM|SAND|WATER)$/);
      expect(r.component_external_id).toMatch(/^AN-/);
      expect(r.supplier_company).toBe('AN Zement GmbH');
      expect(r.supplier_plant).toBe('AN Werk');
      expect(typeof r.mass_kg).toBe('number');
      const k = `${r.instance_external_id}|${r.year}|${r.indicator}|${r.module}`;
      const g = sums.get(k) ?? { sum: 0, total: r.year_total as number, share: 0 };
      g.sum += r.value as number;
      g.share += (r.share_of_year_total as number) ?? 0;
      sums.set(k, g);
    }
    for (const [k, g] of sums) {
      expect(Math.abs(g.sum - g.total), k).toBeLessThanOrEqual(Math.abs(g.total) * 1e-9 + 1e-15);
      if (g.total !== 0) expect(g.share).toBeCloseTo(1, 9);
    }
  });

  it('trend: change against the previous computed year, partial marked', () => {
    const { rows } = sheet(wb, 'trend');
    const t = rows.filter(
      (r) => r.instance_external_id === 'AN-T' && r.indicator === 'GWP-total' && r.modules === 'A1-A3',
    );
    expect(t.map((r) => [r.year, r.previous_year, r.partial_year])).toEqual([
      [2028, null, 'no'],
      [2029, 2028, 'no'],
      [2030, 2029, 'yes'],
    ]);
    expect(t[1].change).toBe(difference(t[1].value as number, t[0].value as number));
    expect(t[1].change_pct as number).toBeCloseTo(25, 9);
  });

  it('about: defines every indicator (EN and DE) and states that values are as computed by the service', () => {
    const ws = wb.getWorksheet('about')!;
    const lines = new Map<string, string>();
    for (let r = 1; r <= ws.rowCount; r++)
      lines.set(String(ws.getRow(r).getCell(1).value), String(ws.getRow(r).getCell(2).value));
    expect(lines.get('values')).toMatch(/as computed by the service/);
    for (const i of INDICATOR_INFO) {
      expect(lines.get(`indicator ${i.code}`)).toContain(i.name_en);
      expect(lines.get(`indicator ${i.code}`)).toContain(i.name_de);
    }
  });

  it('without a readable breakdown: no hotspots sheet, and the about sheet says why', async () => {
    const out = join(dir, 'nohot.xlsx');
    const stats = await writeLcaWorkbook(
      { ...report, breakdown_context: { readable: false, reason: BREAKDOWN_NO_SCOPE, components: {}, problems: [] } },
      out,
      { breakdown: true },
    );
    expect(stats.notes.join(' ')).toContain(BREAKDOWN_NO_SCOPE);
    const w = new ExcelJS.Workbook();
    await w.xlsx.readFile(out);
    expect(w.worksheets.map((x) => x.name)).not.toContain('hotspots');
    expect(w.worksheets.map((x) => x.name)).toContain('breakdown'); // --breakdown stays accepted
  });
});
