/** The app's views of a job's LCA impact: one indicator's rows, the attribution chosen, the request estimate. */
import { describe, expect, it } from 'vitest';
import { affectedView, estimatesView, reportView, requestsAbout } from '../../core/app/sessions/lca-impact-view.js';
import type { AffectedSet, ImpactReport, ImpactRow, ImpactSourceRow } from '../../core/app/lca-impact.js';
import { LcaImpactReportView } from '../../core/contract/lca-impact.js';

const row = (o: Partial<ImpactRow>): ImpactRow => ({
  instance_id: 'i-1',
  external_id: 'PI-1',
  plant_code: 'P1',
  year: 2025,
  indicator: 'GWP-total',
  module: 'A1-A3',
  unit: 'kg CO2 eq',
  basis: 'per_declared_unit',
  declared_unit: 't',
  before: 10,
  after: 12,
  change: 2,
  change_pct: 20,
  blocked_before: null,
  blocked_after: null,
  ...o,
});

const source = (o: Partial<ImpactSourceRow>): ImpactSourceRow => ({
  instance_id: 'i-1',
  external_id: 'PI-1',
  year: 2025,
  indicator: 'GWP-total',
  module: 'A1-A3',
  unit: 'kg CO2 eq',
  basis: 'per_declared_unit',
  line: 'component',
  component_type: 'supplier_product',
  ref: 'r-1',
  code: 'SP-1',
  name: 'Cement',
  supplier: null,
  before: 4,
  after: 6,
  change: 2,
  rows: ['supplier_products!3'],
  ...o,
});

const report = (rows: ImpactRow[], sources: ImpactSourceRow[] = []): ImpactReport => ({
  format: 'supply-loader/lca-impact@1',
  job_id: '20260101-120000-a1b2c3',
  generated_at: '2026-01-01T12:00:00Z',
  base_url: 'http://x',
  masked_key: 'svc_…abcd',
  recomputed: true,
  instances: [
    {
      instance_id: 'i-1',
      external_id: 'PI-1',
      plant_code: 'P1',
      rows: [],
      before_outcome: 'completed',
      after_outcome: 'completed',
      problem: null,
      years_needing_data: [2026],
    },
  ],
  rows,
  sources,
  breakdown: { before: true, after: true },
  aborted: null,
  notes: [],
});

describe('LCA impact report view', () => {
  it('shows GWP-total first, only its rows, and the blocked years apart', () => {
    const v = reportView(
      report([
        row({ indicator: 'PENRT', unit: 'MJ' }),
        row({}),
        row({ indicator: '', year: 2024, blocked_after: 'no production figures' }),
      ]),
    );
    expect(v.indicators.map((i) => i.code)).toEqual(['PENRT', 'GWP-total']);
    expect(v.indicator).toBe('GWP-total');
    expect(v.instances[0]?.yearsNeedingData).toEqual([2026]);
    expect(v.rows).toHaveLength(1);
    expect(v.blocked).toEqual([{ instanceId: 'i-1', externalId: 'PI-1', year: 2024, why: 'no production figures' }]);
    expect(() => LcaImpactReportView.parse(v)).not.toThrow();
  });

  it('attributes the asked instance-year-module, else the first that changed, with its sources only', () => {
    const r = report(
      [row({ change: 0, after: 10, change_pct: 0 }), row({ year: 2026 }), row({ year: 2027, change: -1 })],
      [source({ year: 2026 }), source({ year: 2027, change: -1 }), source({ year: 2026, indicator: 'PENRT' })],
    );
    const first = reportView(r);
    expect(first.choices.map((c) => c.year)).toEqual([2026, 2027]);
    expect(first.attribution?.year).toBe(2026);
    expect(first.attribution?.lines).toHaveLength(1);
    const asked = reportView(r, { instanceId: 'i-1', year: 2027, module: 'A1-A3' });
    expect(asked.attribution).toMatchObject({ year: 2027, change: -1, lines: [{ change: -1 }] });
    // an unknown choice falls back to the first
    expect(reportView(r, { instanceId: 'i-1', year: 1999 }).attribution?.year).toBe(2026);
  });

  it('shows no attribution when nothing changed', () => {
    expect(reportView(report([row({ change: 0 })])).attribution).toBeNull();
    expect(reportView(report([])).indicator).toBeNull();
  });

  it('counts one lca-update and its result reads per recompute', () => {
    expect(requestsAbout(0)).toBe(0);
    expect(requestsAbout(4)).toBe(12);
  });

  it('lists the affected set per plant with each instance’s causes once', () => {
    const a: AffectedSet = {
      instances: [
        {
          id: 'i-1',
          external_id: 'PI-1',
          plant_id: 'p',
          plant_code: 'P1',
          causes: [
            {
              kind: 'supplier_product',
              action: 'update',
              entryKey: 'k',
              label: 'supplier product SP-1',
              code: 'SP-1',
              ref: 'r',
              rows: [],
              where: ['supplier_products!3'],
            },
            {
              kind: 'supplier_product',
              action: 'update',
              entryKey: 'k2',
              label: 'supplier product SP-1',
              code: 'SP-1',
              ref: 'r',
              rows: [],
              where: ['supplier_products!4'],
            },
          ],
          rows: ['supplier_products!3', 'supplier_products!4'],
        },
      ],
      byPlant: [{ plant_id: 'p', plant_code: 'P1', count: 1, instances: ['i-1'] }],
      bomsRead: true,
      unchecked: [],
    };
    const v = affectedView(a);
    expect(v).toMatchObject({ count: 1, byPlant: [{ plantCode: 'P1', count: 1 }], moreInstances: 0 });
    expect(v.instances[0]?.causes).toEqual([
      { kind: 'supplier_product', ofKind: null, code: 'SP-1', label: 'supplier product SP-1' },
    ]);
  });

  it('keeps the estimates labelled with what could not be estimated', () => {
    const v = estimatesView({
      kind: 'estimate',
      note: 'An estimate from the current breakdown.',
      estimates: [],
      not_estimated: [
        { instance_id: null, external_id: 'PI-9', why: 'created by the job', rows: ['x!2'] },
        {
          instance_id: 'i-1',
          external_id: 'PI-1',
          why: '2024: no per-source breakdown',
          why_code: { code: 'no_breakdown', params: { year: 2024 } },
          rows: ['x!3'],
        },
      ],
    });
    expect(v.note).toMatch(/estimate/);
    expect(v.notEstimated).toEqual([
      { instanceId: null, externalId: 'PI-9', why: 'created by the job', whyCode: null, rows: ['x!2'] },
      {
        instanceId: 'i-1',
        externalId: 'PI-1',
        why: '2024: no per-source breakdown',
        whyCode: { code: 'no_breakdown', params: { year: 2024 } },
        rows: ['x!3'],
      },
    ]);
  });
});
