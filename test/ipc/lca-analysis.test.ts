/**
 * The LCA screen's contract additions against the embedded sandbox (demo data): lca.analysis (any indicator,
 * per declared unit by default = value ÷ the year's production quantity, hotspots with names summing to the
 * total, trend) and lca.enterProduction ("Enter it here": write the figure, recompute, the year is computed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';
import type { ProcedureName } from '../../core/contract/names.js';

let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

async function results(instanceId: string) {
  const res = await fetch(`${mode.app.sandbox.baseUrl()}/v2/product-instances/${instanceId}/lca-results`, {
    headers: { 'X-API-Key': mode.app.sandbox.ownerKey()! },
  });
  return (await res.json()) as {
    results: {
      year: number;
      status: string;
      production_quantity: number | null;
      values: { indicator: string; module: string; value: number }[];
    }[];
  };
}

async function finished(runId: string): Promise<ProcedureOutput<'lca.report'>> {
  let view = await call('lca.report', { runId });
  for (let i = 0; view.state === 'running' && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 50));
    view = await call('lca.report', { runId });
  }
  expect(view.state).toBe('done');
  return view;
}

let runId: string;
let view: ProcedureOutput<'lca.report'>;
beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-lca-views-'));
  const sel = await call('lca.select', { by: 'all', codes: [] });
  runId = (await call('lca.run', { selectionId: sel.selectionId, recompute: true })).runId;
  view = await finished(runId);
});
afterAll(() => stopTestApp(mode, dir));

describe('lca.analysis', () => {
  it('per declared unit by default: every computed point = Σ modules ÷ the year production quantity', async () => {
    const a = await call('lca.analysis', { runId });
    expect(a).toMatchObject({ indicator: 'GWP-total', basis: 'per_unit', modules: 'A1-A4' });
    expect(a.indicators.map((i) => i.code)).toContain('ADPF');
    // The view names no indicator in a language: the renderer looks the names up (i18n/core-text.ts).
    expect(a.indicators.find((i) => i.code === 'GWP-total')).toEqual({ code: 'GWP-total', unit: 'kg CO2 eq.' });
    let checked = 0;
    const perUnit = [];
    for (const u of a.chart.declaredUnits)
      perUnit.push(...(await call('lca.analysis', { runId, declaredUnit: u.unit })).chart.series);
    for (const s of perUnit) {
      const r = await results(s.instanceId);
      for (const y of r.results) {
        const p = s.points.find((x) => x.year === y.year)!;
        if (y.status !== 'computed') {
          expect(p.value).toBeNull();
          continue;
        }
        const total = y.values.filter((v) => v.indicator === 'GWP-total').reduce((t, v) => t + v.value, 0);
        // each module's sum is kept to 12 significant digits (float noise rounded away): equal to 10 of them
        const exact = total / y.production_quantity!;
        expect(Math.abs(p.value! - exact)).toBeLessThanOrEqual(Math.abs(exact) * 1e-10);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
    const totals = await call('lca.analysis', { runId, basis: 'total', indicator: 'WDP', modules: 'A1-A3' });
    expect(totals).toMatchObject({ indicator: 'WDP', basis: 'total', modules: 'A1-A3' });
  });

  it('per declared unit: one declared unit on the axis at a time, the others named as hidden; totals show all', async () => {
    const a = await call('lca.analysis', { runId });
    const units = a.chart.declaredUnits;
    // the demo selection mixes declared units (cement per t, concrete per m³ …)
    expect(units.length).toBeGreaterThan(1);
    for (let k = 1; k < units.length; k++) expect(units[k - 1].count).toBeGreaterThanOrEqual(units[k].count);
    // default: the unit with the most instances; every series drawn is of that unit
    expect(a.chart.declaredUnit).toBe(units[0].unit);
    expect(a.chart.series.length).toBe(units[0].count);
    for (const s of a.chart.series) expect(s.declaredUnit).toBe(a.chart.declaredUnit);
    const all = view.instances.length;
    expect(a.chart.series.length + a.chart.hidden.length).toBe(all);
    for (const h of a.chart.hidden) {
      expect(h.declaredUnit).not.toBe(a.chart.declaredUnit);
      expect(h.label).toBeTruthy();
    }
    // another unit asked for: only its instances, the rest hidden
    const other = units[1];
    const b = await call('lca.analysis', { runId, declaredUnit: other.unit });
    expect(b.chart.declaredUnit).toBe(other.unit);
    expect(b.chart.series.length).toBe(other.count);
    for (const s of b.chart.series) expect(s.declaredUnit).toBe(other.unit);
    expect(b.chart.hidden.map((h) => h.instanceId)).toEqual(
      expect.arrayContaining(a.chart.series.map((s) => s.instanceId)),
    );
    // a unit the selection does not have: the default
    const c = await call('lca.analysis', { runId, declaredUnit: 'furlong' });
    expect(c.chart.declaredUnit).toBe(units[0].unit);
    // annual totals: every instance (same unit of the indicator), nothing hidden
    const t = await call('lca.analysis', { runId, basis: 'total' });
    expect(t.chart.declaredUnit).toBeNull();
    expect(t.chart.series.length).toBe(all);
    expect(t.chart.hidden).toEqual([]);
  });

  it('hotspots with names (top 10 + rest) summing to the year total, top contributors, trend', async () => {
    const a = await call('lca.analysis', { runId, basis: 'total', modules: 'A1-A3' });
    expect(a.hotspots.reason).toBeNull();
    expect(a.hotspots.readable).toBe(true);
    expect(a.hotspots.rows.length).toBeGreaterThan(0);
    for (const r of a.hotspots.rows) {
      expect(r.component.name ?? r.component.externalId).toBeTruthy();
      if (r.component.componentType === 'supplier_product') expect(r.component.supplierCompany).toBeTruthy();
    }
    const shares = a.hotspots.slices.reduce((t, x) => t + (x.share ?? 0), 0);
    expect(shares).toBeCloseTo(1, 9);
    const r = await results(a.hotspots.instanceId!);
    const y = r.results.find((x) => x.year === a.hotspots.year)!;
    const total = y.values.find((v) => v.indicator === 'GWP-total' && v.module === 'A1-A3')!.value;
    expect(a.hotspots.slices.reduce((t, x) => t + x.value, 0)).toBeCloseTo(total, 6);
    expect(a.hotspots.top.length).toBeGreaterThan(0);
    const withPrev = a.trend.filter((t) => t.previousYear !== null);
    expect(withPrev.length).toBeGreaterThan(0);
    for (const t of withPrev) {
      const prev = a.trend.find((x) => x.instanceId === t.instanceId && x.year === t.previousYear)!;
      expect(t.changeAbs).toBeCloseTo(t.value - prev.value, 6);
    }
  });
});

describe('lca.enterProduction ("Enter it here")', () => {
  it('writes the figure of a blocked past/current year, recomputes, and the year is computed; a future year stays blocked', async () => {
    const blocked = view.instances.flatMap((i) =>
      i.years
        .filter((y) => y.blockers.some((b) => b.kind === 'production_data' && b.needsAction))
        .map((y) => ({ instanceId: i.id, year: y.year! })),
    );
    expect(blocked.length).toBeGreaterThan(0);
    const target = blocked[0];
    const futureBefore = view.instances.flatMap((i) =>
      i.years.filter((y) => y.blockers.some((b) => !b.needsAction)).map((y) => `${i.id}:${y.year}`),
    );
    const next = await call('lca.enterProduction', {
      runId,
      instanceId: target.instanceId,
      year: target.year,
      quantity: 1234.5,
    });
    const after = await finished(next.runId);
    const y = after.instances.find((i) => i.id === target.instanceId)!.years.find((x) => x.year === target.year)!;
    expect(y.status).toBe('computed');
    expect(y.blockers).toEqual([]);
    const r = await results(target.instanceId);
    expect(r.results.find((x) => x.year === target.year)?.production_quantity).toBe(1234.5);
    // the future years are still blocked
    const futureAfter = after.instances.flatMap((i) =>
      i.years.filter((x) => x.blockers.some((b) => !b.needsAction)).map((x) => `${i.id}:${x.year}`),
    );
    expect(futureAfter).toEqual(futureBefore);
  });
});
