/**
 * The LCA impact engine without a service (lca/impact/): which instances a plan affects and through what, the
 * report's before → after and its attribution (always summing to the change), and the dry run's estimates.
 */
import { describe, expect, it } from 'vitest';
import type { PlanEntry } from '../../core/jobs/types.js';
import { affectedInstances } from '../../core/lca/impact/affected.js';
import { estimateImpact } from '../../core/lca/impact/estimate.js';
import { buildImpactReport } from '../../core/lca/impact/report.js';
import type { AffectedSet, ImpactCell, InstanceBom, ServiceComponents } from '../../core/lca/impact/types.js';
import type { BreakdownContext, InstanceLca } from '../../core/lca/model.js';

const PLAN = { sheetNames: { bom: 'BOM', 'supplier-products': 'SP' } };

function entry(e: Partial<PlanEntry> & Pick<PlanEntry, 'key' | 'kind' | 'action'>): PlanEntry {
  return {
    level: 0,
    sheet: e.kind === 'bom' ? 'bom' : e.kind === 'production' ? 'production' : 'supplier-products',
    row: 2,
    rows: [],
    externalId: null,
    label: e.key,
    id: null,
    ...e,
  } as PlanEntry;
}

const inst = (id: string, bom: InstanceBom['bom'], plant = 'pl-1'): InstanceBom => ({
  id,
  external_id: id.toUpperCase(),
  plant_id: plant,
  plant_code: plant.toUpperCase(),
  bom,
});
const none: ServiceComponents = { silos: [], prechainProducts: [] };

describe('affectedInstances', () => {
  const service = {
    instances: [
      inst('pi-1', [{ type: 'silo', ref: 'silo-1', mass_kg: 10 }]),
      inst('pi-2', [
        { type: 'supplier_product', ref: 'sp-2', mass_kg: 5 },
        { type: 'prechain_product', ref: 'pc-1', mass_kg: 1 },
      ]),
      inst('pi-3', [{ type: 'supplier_product', ref: 'sp-3', mass_kg: 5 }], 'pl-2'),
      inst('pi-4', null),
    ],
    silos: [{ id: 'silo-1', external_id: 'SILO-1', items: ['sp-1'] }],
    prechainProducts: [{ id: 'pc-1', external_id: 'PC-1', product_instance_id: 'pi-1' }],
  };

  it('follows a supplier product through a silo and a prechain product to the instances using them', () => {
    const sp1 = entry({
      key: 'supplier-products!4',
      kind: 'supplier_product',
      action: 'update',
      id: 'sp-1',
      externalId: 'SP-1',
      rows: [{ sheet: 'supplier-products', row: 4 }],
    });
    const set = affectedInstances(PLAN, [sp1], service);
    expect(set.instances.map((i) => i.external_id)).toEqual(['PI-1', 'PI-2']);
    const [pi1, pi2] = set.instances;
    expect(pi1.causes[0]).toMatchObject({ kind: 'supplier_product', via: { type: 'silo', code: 'SILO-1' } });
    expect(pi1.rows).toEqual(['SP!4']);
    expect(pi2.causes[0]).toMatchObject({ kind: 'prechain_instance', via: { type: 'prechain_product', code: 'PC-1' } });
    expect(pi2.causes[0]?.of_kind).toBe('supplier_product');
    expect(set.byPlant).toEqual([{ plant_id: 'pl-1', plant_code: 'PL-1', count: 2, instances: ['PI-1', 'PI-2'] }]);
    expect(set.unchecked).toEqual(['The BOM of product instance PI-4 could not be read.']);
  });

  it('counts a BOM replace, production figures, and a component swapped in by the job (created in it)', () => {
    const created = entry({
      key: 'supplier-products!9',
      kind: 'supplier_product',
      action: 'create',
      externalId: 'SP-9',
      rows: [{ sheet: 'supplier-products', row: 9 }],
    });
    const bom = entry({
      key: 'bom:PI-3',
      kind: 'bom',
      action: 'replace',
      id: 'pi-3',
      externalId: 'PI-3',
      rows: [{ sheet: 'bom', row: 7 }],
      body: { bom: [{ type: 'supplier_product', ref: null, mass_kg: 5 }] },
      refs: [{ path: ['bom', 0, 'ref'], key: 'supplier-products!9', code: 'SP-9' }],
      bomDiff: {
        added: [{ type: 'supplier_product', code: 'SP-9', mass_kg: 5 }],
        removed: [{ type: 'supplier_product', code: 'SP-3', mass_kg: 5 }],
        changed: [],
        unchanged: 0,
      },
    });
    const production = entry({
      key: 'production:PI-2',
      kind: 'production',
      action: 'update',
      id: 'pi-2',
      externalId: 'PI-2',
      rows: [{ sheet: 'production', row: 3 }],
    });
    const unchanged = entry({ key: 'supplier-products!2', kind: 'supplier_product', action: 'unchanged', id: 'sp-2' });
    const set = affectedInstances(PLAN, [created, bom, production, unchanged], service);
    expect(set.instances.map((i) => i.external_id)).toEqual(['PI-2', 'PI-3']);
    const pi3 = set.instances[1];
    expect(pi3.causes.map((c) => c.kind)).toEqual(['bom', 'supplier_product']);
    expect(pi3.causes[0].components).toEqual(['SP-9', 'SP-3']);
    expect(pi3.rows).toEqual(['BOM!7', 'SP!9']);
    expect(set.instances[0].rows).toEqual(['production!3']);
  });

  it('reads nothing of the service when the plan changes no component: BOM replaces and production only', () => {
    const bom = entry({ key: 'bom:PI-NEW', kind: 'bom', action: 'replace', id: null, externalId: 'PI-NEW' });
    const pi = entry({
      key: 'product-instances!2',
      kind: 'product_instance',
      action: 'create',
      externalId: 'PI-NEW',
      body: { plant_id: 'PL-9' },
    });
    const set = affectedInstances(PLAN, [pi, bom], null);
    expect(set.bomsRead).toBe(false);
    expect(set.instances).toMatchObject([
      { id: null, external_id: 'PI-NEW', plant_id: 'pl-9', entryKey: 'bom:PI-NEW' },
    ]);
  });

  it('an unchanged plan affects nothing', () => {
    const set = affectedInstances(PLAN, [entry({ key: 'bom:PI-1', kind: 'bom', action: 'unchanged', id: 'pi-1' })], {
      instances: service.instances,
      ...none,
    });
    expect(set.instances).toEqual([]);
  });
});

// ------------------------------------------------------------------ report and estimates

const values = (a13: number, q: number) => ({
  year: 2025,
  status: 'computed',
  production_quantity: q,
  values: [{ indicator: 'GWP-total', module: 'A1-A3', unit: 'kg CO2 eq.', value: a13 }],
  blockers: [],
});
const withBreakdown = (y: ReturnType<typeof values>, parts: Record<string, number>) => ({
  ...y,
  breakdown: Object.entries(parts).map(([ref, value]) => ({
    component_type: 'supplier_product',
    ref,
    indicator: 'GWP-total',
    module: 'A1-A3',
    value,
  })),
});
function lca(id: string, results: unknown[]): InstanceLca {
  return {
    instance: { id, external_id: id.toUpperCase(), product_unit: 'T' },
    outcome: 'completed',
    job_status: 'completed',
    job: null,
    err_code: null,
    msg: null,
    explanation: null,
    action: null,
    recomputed: true,
    waited_for_running_job: false,
    results,
    response_extra: {},
    checked_at: null,
  } as unknown as InstanceLca;
}
const cause = (
  kind: 'bom' | 'production' | 'supplier_product',
  ref: string | null,
  where: string[],
  code?: string,
) => ({
  kind,
  action: 'update' as const,
  entryKey: where[0],
  label: where[0],
  code: code ?? null,
  ref,
  rows: [],
  where,
  ...(kind === 'bom' && { components: ['SP-A'] }),
});
const affected = (causes: ReturnType<typeof cause>[]): AffectedSet => ({
  instances: [
    { id: 'pi-1', external_id: 'PI-1', plant_id: null, plant_code: null, causes, rows: causes.flatMap((c) => c.where) },
  ],
  byPlant: [],
  bomsRead: true,
  unchecked: [],
});
const context = (masses: Record<string, number>): BreakdownContext => ({
  readable: true,
  reason: null,
  components: {
    'pi-1': Object.entries(masses).map(([ref, m]) => ({
      componentType: 'supplier_product',
      ref,
      externalId: ref.toUpperCase(),
      name: `name ${ref}`,
      supplierCompany: 'Holcim',
      supplierPlant: 'Lägerdorf',
      massKg: m,
    })),
  },
  problems: [],
});

function report(before: InstanceLca, after: InstanceLca, causes: ReturnType<typeof cause>[], ctx = context({})) {
  return buildImpactReport({
    jobId: 'J',
    baseUrl: 'u',
    maskedKey: 'k',
    recomputed: true,
    affected: affected(causes),
    before: new Map([['pi-1', before]]),
    after: new Map([['pi-1', after]]),
    beforeContext: ctx,
    afterContext: ctx,
    aborted: null,
  });
}

describe('buildImpactReport', () => {
  it('gives its notes and instance problems codes beside the words, in the same order', () => {
    const before = lca('pi-1', [values(300, 100)]);
    const r = buildImpactReport({
      jobId: 'J',
      baseUrl: 'u',
      maskedKey: 'k',
      recomputed: true,
      affected: affected([cause('supplier_product', 'sp-a', ['SP!4'])]),
      before: new Map([['pi-1', { ...before, outcome: 'failed', err_code: 'lca_failed' }]]),
      after: new Map(),
      beforeContext: context({}),
      afterContext: context({}),
      aborted: null,
    });
    expect(r.notes).toHaveLength(1);
    expect(r.note_codes).toEqual([{ code: 'not_read_after', params: { instance: 'PI-1' } }]);
    expect(r.instances[0]?.problem).toBe('before: failed (lca_failed)');
    expect(r.instances[0]?.problem_codes).toEqual([
      { code: 'outcome', params: { side: 'before', outcome: 'failed', err_code: 'lca_failed' } },
    ]);
  });

  it('per declared unit: before, after, change, %; attributed per component with its supplier and rows', () => {
    const before = lca('pi-1', [withBreakdown(values(300, 100), { 'sp-a': 200, 'sp-b': 100 })]);
    const after = lca('pi-1', [withBreakdown(values(330, 100), { 'sp-a': 230, 'sp-b': 100 })]);
    const r = report(before, after, [cause('supplier_product', 'sp-a', ['SP!4'], 'SP-A')], context({ 'sp-a': 5 }));
    expect(r.rows).toMatchObject([{ basis: 'per_declared_unit', declared_unit: 'T', before: 3, after: 3.3 }]);
    expect(r.rows[0].change).toBeCloseTo(0.3, 12);
    expect(r.rows[0].change_pct).toBeCloseTo(10, 9);
    expect(r.sources).toHaveLength(1);
    expect(r.sources[0]).toMatchObject({
      line: 'component',
      ref: 'sp-a',
      code: 'SP-A',
      supplier: 'Holcim, Lägerdorf',
      before: 2,
      after: 2.3,
      rows: ['SP!4'],
    });
  });

  it('what the breakdown does not explain goes to production figures when they changed, else not attributed', () => {
    // totals move with the quantity, per-unit contributions stay: the per-unit change is not in the breakdown
    const before = lca('pi-1', [withBreakdown(values(300, 100), { 'sp-a': 300 })]);
    const after = lca('pi-1', [withBreakdown(values(440, 200), { 'sp-a': 300 })]);
    const withProduction = report(before, after, [cause('production', 'pi-1', ['production!3'])]);
    const sum = withProduction.sources.reduce((s, x) => s + x.change, 0);
    expect(sum).toBeCloseTo(withProduction.rows[0].change!, 12);
    expect(withProduction.sources.map((s) => s.line)).toEqual(['component', 'production_figures']);
    expect(withProduction.sources[1].rows).toEqual(['production!3']);
    const without = report(before, after, [cause('supplier_product', 'sp-a', ['SP!4'])]);
    expect(without.sources.map((s) => s.line)).toEqual(['component', 'not_attributed']);
  });

  it('without a breakdown the whole change is not attributed; a blocked year says so with its blocker', () => {
    const blocked = {
      year: 2024,
      status: 'blocked',
      production_quantity: null,
      values: [],
      blockers: [
        { type: 'missing_input', kind: 'production_data', code: 'blk_production_data_missing', msg: 'no data' },
      ],
    };
    const before = lca('pi-1', [blocked, values(300, 100)]);
    const after = lca('pi-1', [{ ...values(400, 100), year: 2024 }, values(360, 100)]);
    const r = report(before, after, [cause('supplier_product', 'sp-a', ['SP!4'])]);
    const y24 = r.rows.find((x) => x.year === 2024)!;
    expect(y24).toMatchObject({
      before: null,
      after: 4,
      change: null,
      blocked_before: 'blk_production_data_missing: no data',
    });
    expect(r.sources).toMatchObject([{ year: 2025, line: 'not_attributed', change: expect.closeTo(0.6, 12) }]);
  });

  it('names components by the instance id as the service wrote it (upper case), whatever case the set holds', () => {
    const b = lca('PI-1', [withBreakdown(values(300, 100), { 'SP-A': 300 })]);
    const a = lca('PI-1', [withBreakdown(values(330, 100), { 'SP-A': 330 })]);
    const ctx = { ...context({}), components: { 'PI-1': context({ 'sp-a': 5 }).components['pi-1'] } };
    const r = buildImpactReport({
      jobId: 'J',
      baseUrl: 'u',
      maskedKey: 'k',
      recomputed: true,
      affected: affected([cause('supplier_product', 'sp-a', ['SP!4'], 'SP-A')]),
      before: new Map([['pi-1', b]]),
      after: new Map([['pi-1', a]]),
      beforeContext: ctx,
      afterContext: ctx,
      aborted: null,
    });
    expect(r.sources).toMatchObject([{ line: 'component', code: 'SP-A', name: 'name sp-a', rows: ['SP!4'] }]);
  });

  it('totals when the production quantity is not known', () => {
    const before = lca('pi-1', [values(300, 0)]);
    const after = lca('pi-1', [values(330, 0)]);
    const r = report(before, after, [cause('bom', 'pi-1', ['BOM!2'])]);
    expect(r.rows[0]).toMatchObject({ basis: 'total', before: 300, after: 330, change: 30, declared_unit: null });
  });
});

describe('estimateImpact', () => {
  const bomEntry = (bom: { ref: string; mass_kg: number }[]) =>
    entry({
      key: 'BOM!2',
      kind: 'bom',
      action: 'replace',
      id: 'pi-1',
      externalId: 'PI-1',
      body: { bom: bom.map((c) => ({ type: 'supplier_product', ...c })) },
    });
  const current = lca('pi-1', [withBreakdown(values(300, 100), { 'sp-a': 200, 'sp-b': 100 })]);
  const donor = lca('pi-9', [withBreakdown(values(80, 10), { 'sp-c': 80 })]);
  const ctx: BreakdownContext = {
    ...context({ 'sp-a': 10, 'sp-b': 5 }),
    components: {
      ...context({ 'sp-a': 10, 'sp-b': 5 }).components,
      'pi-9': [{ ...context({ 'sp-c': 4 }).components['pi-1'][0] }],
    },
  };

  it('scales a mass change, takes a removed component away, adds a swapped-in one at its known contribution per kg', () => {
    const e = estimateImpact(affected([cause('bom', 'pi-1', ['BOM!2'])]), [current, donor], ctx, [
      bomEntry([
        { ref: 'sp-a', mass_kg: 15 },
        { ref: 'sp-c', mass_kg: 2 },
      ]),
    ]);
    expect(e.kind).toBe('estimate');
    expect(e.note).toMatch(/not results/);
    expect(e.estimates).toHaveLength(1);
    const [x] = e.estimates;
    // sp-a: 2 per t × (15/10 − 1) = +1; sp-b removed: −1; sp-c: 80/10 per t / 4 kg = 2 per t per kg × 2 kg = +4
    expect(x.current).toBe(3);
    expect(Object.fromEntries(x.parts.map((p) => [p.ref, p.change]))).toEqual({ 'sp-a': 1, 'sp-b': -1, 'sp-c': 4 });
    expect(x.estimated_change).toBe(4);
    expect(e.not_estimated).toEqual([]);
  });

  it('says what it cannot estimate: an added component no breakdown shows, a component whose data changes', () => {
    const e = estimateImpact(
      affected([cause('bom', 'pi-1', ['BOM!2']), cause('supplier_product', 'sp-a', ['SP!4'], 'SP-A')]),
      [current],
      ctx,
      [
        bomEntry([
          { ref: 'sp-a', mass_kg: 10 },
          { ref: 'sp-b', mass_kg: 5 },
          { ref: 'sp-x', mass_kg: 1 },
        ]),
      ],
    );
    expect(e.estimates).toEqual([]);
    expect(e.not_estimated.map((n) => n.why)).toEqual([
      'supplier product SP-A is updated: its new contribution is known only from the recompute',
      '2025: component sp-x is added and no breakdown shows its contribution per kg',
    ]);
    expect(e.not_estimated.map((n) => n.why_code)).toEqual([
      { code: 'component_changed', params: { kind: 'supplier_product', code: 'SP-A', action: 'update' } },
      { code: 'added_without_per_kg', params: { year: 2025, code: 'sp-x' } },
    ]);
  });
});

describe('the cell every impact line is about', () => {
  const cellOf = (x: ImpactCell): ImpactCell => ({
    instance_id: x.instance_id,
    external_id: x.external_id,
    year: x.year,
    indicator: x.indicator,
    module: x.module,
    unit: x.unit,
    basis: x.basis,
  });

  it('an estimate, a report row and its source lines name the same instance, year, indicator, module, unit and basis', () => {
    const before = lca('pi-1', [withBreakdown(values(300, 100), { 'sp-a': 200, 'sp-b': 100 })]);
    const after = lca('pi-1', [withBreakdown(values(330, 100), { 'sp-a': 230, 'sp-b': 100 })]);
    const r = report(before, after, [cause('bom', 'pi-1', ['BOM!2'])], context({ 'sp-a': 10, 'sp-b': 5 }));
    const e = estimateImpact(
      affected([cause('bom', 'pi-1', ['BOM!2'])]),
      [before],
      context({ 'sp-a': 10, 'sp-b': 5 }),
      [
        entry({
          key: 'BOM!2',
          kind: 'bom',
          action: 'replace',
          id: 'pi-1',
          externalId: 'PI-1',
          body: { bom: [{ type: 'supplier_product', ref: 'sp-a', mass_kg: 20 }] },
        }),
      ],
    );
    expect(r.rows).toHaveLength(1);
    expect(e.estimates).toHaveLength(1);
    const cell = cellOf(r.rows[0]);
    expect(cell).toMatchObject({ instance_id: 'pi-1', basis: 'per_declared_unit' });
    expect(cellOf(e.estimates[0])).toEqual(cell);
    expect(r.sources.length).toBeGreaterThan(0);
    for (const s of r.sources) expect(cellOf(s)).toEqual(cell);
  });
});
