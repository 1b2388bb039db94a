/**
 * The main side's views of plans and jobs (app/sessions/job-views.ts), on plans built here: values shown as text (never
 * JSON), filters, the re-run of failed rows matched by code across workbooks (the failed-rows workbook has
 * other row numbers) with what they depend on, and a page of 100,000 entries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepFailedRows } from '../../core/app/import-job.js';
import type { JobResult, Plan, PlanEntry } from '../../core/jobs/types.js';
import type { ParsedRow, ParsedSheet } from '../../core/workbook/types.js';
import {
  jobEntryFilter,
  filterPlanEntries,
  jobRowView,
  identityOf,
  notSucceeded,
  page,
  planRowView,
  rowLookup,
  summarizePlan,
  toScalar,
  undoPlanView,
  valueWords,
} from '../../core/app/sessions/job-views.js';

function entry(key: string, over: Partial<PlanEntry> = {}): PlanEntry {
  const [sheet, row] = key.includes('!') ? key.split('!') : ['bom', '2'];
  return {
    key,
    kind: 'supplier_product',
    level: 2,
    sheet: sheet as PlanEntry['sheet'],
    row: Number(row),
    rows: [{ sheet: sheet as PlanEntry['sheet'], row: Number(row) }],
    externalId: null,
    label: key,
    action: 'create',
    id: null,
    ...over,
  };
}

function plan(entries: PlanEntry[]): Plan {
  return {
    format: 'supply-loader/plan@1',
    createdAt: '2026-01-01T00:00:00Z',
    file: 'x.xlsx',
    sheetNames: {},
    sheetColumns: {},
    baseUrl: 'http://127.0.0.1:1',
    manufacturerId: 'm',
    maskedKey: 'svc-k-****',
    options: { createOnly: false },
    entries,
    summary: summarizePlan(entries),
    requests: 0,
    preflight: { ok: true, scopes: [], plant_ids: [], problems: [], warnings: [] },
  };
}

describe('values and rows as the screens see them', () => {
  it('shows values as text or numbers, never as JSON', () => {
    expect(toScalar(undefined)).toBeNull();
    expect(toScalar(12.5)).toBe(12.5);
    expect(toScalar(Number.NaN)).toBe('NaN');
    expect(toScalar({ category: 'elementary', elementary_id: 'e1' })).toBe('category: elementary, elementary_id: e1');
    expect(toScalar([{ year: 2024, amount: 5 }, 'x'])).toBe('year: 2024, amount: 5; x');
  });

  it('says object values of a service body in words: transport route, hazardous substances, items, BOM, figures', () => {
    expect(valueWords('transport_route', { truck_km: 120, train_km: 40, ship_km: null })).toBe(
      'truck 120 km, train 40 km',
    );
    expect(valueWords('transport_route', {})).toBeNull();
    expect(
      valueWords('hazardous_substances', [
        { cas_number: '14808-60-7', mass_share: 0.05 },
        { cas_number: '1305-78-8', mass_share: 0.2 },
      ]),
    ).toBe('CAS 14808-60-7: 0.05; CAS 1305-78-8: 0.2');
    expect(valueWords('material_type', { category: 'composite', composite_id: 'c-1' })).toBe('composite c-1');
    expect(
      valueWords('items', [
        {
          supplier_product_id: 'sp-1',
          annual_items: [
            { year: 2024, amount: 1000 },
            { year: 2025, amount: 1200 },
          ],
        },
      ]),
    ).toBe('sp-1 (2024: 1000, 2025: 1200)');
    expect(valueWords('bom', [{ type: 'silo', ref: 's-1', mass_kg: 300 }])).toBe('silo s-1 300 kg');
    expect(valueWords('production_figures', [{ year: 2024, quantity: 5 }])).toBe('2024: 5');
    // An update's whole-field change (an undo sets a route back) is worded the same way.
    expect(valueWords('transport_route.truck_km', 12)).toBe(12);
  });

  it('an undo’s re-creates each show their own body (several share sheet and row 0), references by code', () => {
    const recreate = (code: string, over: Partial<PlanEntry>) =>
      entry(`undo:mirror:supplier-products:${code}`, {
        sheet: 'supplier-products',
        row: 0,
        rows: [],
        externalId: code,
        ...over,
      });
    const p = plan([
      recreate('SP-A', {
        body: {
          name: 'Sand A',
          transport_route: { truck_km: 120, train_km: 40 },
          hazardous_substances: [{ cas_number: '14808-60-7', mass_share: 0.05 }],
          supplier_plant_id: null,
        },
        refs: [{ path: ['supplier_plant_id'], key: 'undo:mirror:supplier-plants:SPL-1', code: 'SPL-1' }],
      }),
      recreate('SP-B', { body: { name: 'Sand B', transport_route: null, epd_id: null } }),
      entry('undo:bom:PI-1', {
        kind: 'bom',
        action: 'replace',
        body: { bom: [{ type: 'supplier_product', ref: null, mass_kg: 100 }] },
        refs: [{ path: ['bom', 0, 'ref'], key: 'undo:mirror:supplier-products:SP-A', code: 'SP-A' }],
      }),
    ]);
    const v = undoPlanView('20260101-000000-abcdef', p);
    expect(v.rows.map((r) => r.key)).toEqual(p.entries.map((e) => e.key));
    expect(v.rows[0].fields).toEqual([
      { field: 'name', value: 'Sand A' },
      { field: 'transport_route', value: 'truck 120 km, train 40 km' },
      { field: 'hazardous_substances', value: 'CAS 14808-60-7: 0.05' },
      { field: 'supplier_plant_id', value: 'SPL-1' },
    ]);
    // empty fields are left out
    expect(v.rows[1].fields).toEqual([{ field: 'name', value: 'Sand B' }]);
    expect(v.rows[2].fields).toEqual([{ field: 'bom', value: 'supplier_product SP-A 100 kg' }]);
    expect(
      undoPlanView(
        '20260101-000000-abcdef',
        plan([entry('undo:bom:PI-2', { kind: 'bom', action: 'replace', body: { bom: [] } })]),
      ).rows[0].fields,
    ).toEqual([{ field: 'bom', value: null }]);
  });

  it('a create shows the row as written; an update its field changes; a BOM its component diff', () => {
    const rowOf = (sheet: string, row: number) =>
      sheet === 'supplier-products' && row === 2
        ? { row: 2, values: { external_id: 'SP-1', name: 'Sand', truck_km: 12, epd_id: null } }
        : undefined;
    const c = planRowView(entry('supplier-products!2', { externalId: 'SP-1' }), rowOf);
    expect(c.fields).toEqual([
      { field: 'external_id', value: 'SP-1' },
      { field: 'name', value: 'Sand' },
      { field: 'truck_km', value: 12 },
      { field: 'epd_id', value: '#CLEAR' },
    ]);
    const u = planRowView(
      entry('supplier-products!2', {
        action: 'update',
        changes: [{ field: 'transport_route.truck_km', before: 10, after: 12 }],
      }),
      rowOf,
    );
    expect(u.fields).toEqual([]);
    expect(u.changes).toEqual([{ field: 'transport_route.truck_km', before: 10, after: 12 }]);
    const b = planRowView(
      entry('bom:PI-1', {
        kind: 'bom',
        action: 'replace',
        bomDiff: {
          added: [{ type: 'silo', code: 'S-1', mass_kg: 3 }],
          removed: [],
          changed: [{ type: 'silo', code: 'S-2', before: 1, after: 2 }],
          unchanged: 4,
        },
      }),
      rowOf,
    );
    expect(b.bom).toEqual({
      added: [{ type: 'silo', code: 'S-1', massKg: 3 }],
      removed: [],
      changed: [{ type: 'silo', code: 'S-2', before: 1, after: 2 }],
      unchanged: 4,
    });
  });

  it('a create shows its child rows too: a silo its yearly amounts, a supplier product its hazardous substances', () => {
    const rows: Record<string, Record<number, Record<string, unknown>>> = {
      silos: { 2: { external_id: 'S-1', name: 'Silo' } },
      'silo-items': {
        2: { silo_external_id: 'S-1', supplier_product_external_id: 'SP-1', year: 2024, amount: 1000 },
        3: { silo_external_id: 'S-1', supplier_product_external_id: 'SP-2', year: 2025, amount: 800 },
      },
      'supplier-products': { 4: { external_id: 'SP-3', name: 'Klinker' } },
      'hazardous-substances': {
        2: { supplier_product_external_id: 'SP-3', cas_number: '14808-60-7', mass_share: 0.05 },
      },
    };
    const rowOf = (sheet: string, row: number) =>
      rows[sheet]?.[row] ? { row, values: rows[sheet][row] as never } : undefined;
    const silo = planRowView(
      entry('silos!2', {
        kind: 'silo',
        rows: [
          { sheet: 'silos', row: 2 },
          { sheet: 'silo-items', row: 2 },
          { sheet: 'silo-items', row: 3 },
        ],
      }),
      rowOf,
    );
    expect(silo.fields).toEqual([
      { field: 'external_id', value: 'S-1' },
      { field: 'name', value: 'Silo' },
      { field: 'items[SP-1][2024]', value: 1000 },
      { field: 'items[SP-2][2025]', value: 800 },
    ]);
    const sp = planRowView(
      entry('supplier-products!4', {
        rows: [
          { sheet: 'supplier-products', row: 4 },
          { sheet: 'hazardous-substances', row: 2 },
        ],
      }),
      rowOf,
    );
    expect(sp.fields).toContainEqual({ field: 'hazardous_substances[14808-60-7].mass_share', value: 0.05 });
    // An update shows its changes, not the rows.
    const upd = planRowView(
      entry('silos!2', { kind: 'silo', action: 'update', rows: [{ sheet: 'silo-items', row: 2 }] }),
      rowOf,
    );
    expect(upd.fields).toEqual([]);
  });

  it('filters plan entries by sheet, action (or everything that writes) and words', () => {
    const p = plan([
      entry('supplier-companies!2', { kind: 'supplier_company', action: 'unchanged' }),
      entry('supplier-products!2', { action: 'update', label: 'supplier product Sand' }),
      entry('supplier-products!3', {
        action: 'blocked',
        problems: [
          {
            kind: 'unresolved',
            sheet: 'supplier-products',
            cell: 'D3',
            row: 3,
            field: 'material_code',
            message: 'material code MAT-X is unknown',
          },
        ],
      }),
      entry('bom:PI-1', { kind: 'bom', action: 'replace' }),
      entry('mirror:supplier-products:SP-OLD', { action: 'delete', sheet: 'supplier-products', row: 0, rows: [] }),
    ]);
    expect(filterPlanEntries(p, {})).toEqual([0, 1, 2, 3, 4]);
    // everything that writes: deletes too
    expect(filterPlanEntries(p, { action: 'writes' })).toEqual([1, 3, 4]);
    expect(filterPlanEntries(p, { action: 'delete' })).toEqual([4]);
    expect(filterPlanEntries(p, { sheet: 'supplier-products' })).toEqual([1, 2, 4]);
    expect(filterPlanEntries(p, { search: 'mat-x' })).toEqual([2]);
    expect(filterPlanEntries(p, { search: 'SAND', action: 'update' })).toEqual([1]);
  });

  it('pages 100,000 entries without sending them all', () => {
    const many = plan(
      Array.from({ length: 100_000 }, (_, i) =>
        entry(`supplier-products!${i + 2}`, { action: i % 10 === 0 ? 'update' : 'create' }),
      ),
    );
    const idx = filterPlanEntries(many, { action: 'update' });
    expect(idx).toHaveLength(10_000);
    const pg = page(idx, 9_900, 500, (i) => planRowView(many.entries[i], () => undefined));
    expect(pg.total).toBe(10_000);
    expect(pg.rows).toHaveLength(100);
    expect(pg.rows[0].key).toBe(`supplier-products!${99_000 + 2}`);
    expect(page(idx, 20_000, 10, (i) => i)).toEqual({ total: 10_000, offset: 10_000, rows: [] });
  });
});

describe('outcomes per row', () => {
  const p = plan([
    entry('supplier-products!2', { externalId: 'SP-1' }),
    entry('supplier-products!3', { externalId: 'SP-2' }),
    entry('supplier-products!4', { externalId: 'SP-3', action: 'update' }),
    entry('silos!2', { kind: 'silo', externalId: 'S-1' }),
  ]);
  const result: Pick<JobResult, 'entries'> = {
    entries: [
      { key: 'supplier-products!2', outcome: 'created', id: 'id1', status: 201 },
      {
        key: 'supplier-products!3',
        outcome: 'failed',
        status: 422,
        err_code: 'err_material_type_not_found',
        msg: 'not found',
      },
      { key: 'supplier-products!4', outcome: 'skipped', reason: 'create_only', msg: 'not applied' },
    ],
  };

  const byKey = new Map(result.entries.map((o) => [o.key, o]));
  const outcomeOf = (e: PlanEntry) => byKey.get(e.key) ?? { key: e.key, outcome: 'pending' as const };
  // the identities of the entries that did not succeed (what failedIdentities reads from a job folder)
  const failed = new Set(p.entries.filter((e) => notSucceeded(outcomeOf(e))).map(identityOf));

  it('counts what did not succeed: failed, skipped (not create-only), not run', () => {
    const passing = (f: Parameters<typeof jobEntryFilter>[0]) => {
      const passes = jobEntryFilter(f);
      return p.entries.flatMap((e, i) => (!passes || passes(e, outcomeOf(e)) ? [i] : []));
    };
    expect(passing({ outcome: 'problems' })).toEqual([1, 3]);
    expect(passing({ outcome: 'pending' })).toEqual([3]);
    expect(passing({ search: 'err_material' })).toEqual([1]);
    expect(notSucceeded({ key: 'x', outcome: 'skipped', reason: 'dependency' })).toBe(true);
    const v = jobRowView(p.entries[1], result.entries[1]);
    expect(v).toMatchObject({
      outcome: 'failed',
      status: 422,
      errCode: 'err_material_type_not_found',
      message: 'not found',
      planAction: 'create',
    });
  });

  /** keepFailedRows over a plan's entries written to a file: the kept entries, their summary, how many were left. */
  async function keptOf(p: Plan): Promise<{ entries: PlanEntry[]; summary: Plan['summary']; excluded: number }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-keep-'));
    try {
      const from = path.join(dir, 'all.jsonl');
      const to = path.join(dir, 'kept.jsonl');
      fs.writeFileSync(from, p.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      const kept = await keepFailedRows(from, to, { jobId: 'j', failed });
      const entries = fs
        .readFileSync(to, 'utf8')
        .split('\n')
        .filter((l) => l)
        .map((l) => JSON.parse(l) as PlanEntry);
      return { entries, ...kept };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('re-runs only those rows: matched by code in another workbook, with what they depend on', async () => {
    // The failed-rows workbook: other row numbers; SP-2 fixed, the silo holds SP-2 (created in the same run).
    const next = plan([
      entry('supplier-products!2', { externalId: 'SP-2' }),
      entry('supplier-products!3', { externalId: 'SP-9' }),
      entry('silos!2', { kind: 'silo', externalId: 'S-1', dependsOn: ['supplier-products!2'] }),
      entry('supplier-companies!2', { kind: 'supplier_company', externalId: 'SC-1' }),
    ]);
    const only = await keptOf(next);
    expect(only.entries.map((e) => e.key)).toEqual(['supplier-products!2', 'silos!2']);
    expect(only.entries).toEqual([next.entries[0], next.entries[2]]);
    expect(only.excluded).toBe(2);
    expect(only.summary).toEqual({
      bySheet: { 'supplier-products': { create: 1 }, silos: { create: 1 } },
      byAction: { create: 2 },
      entries: 2,
      rows: 2,
    });
    // A dependency that did succeed before is kept when the failed row needs it in this plan.
    const withDep = plan([
      entry('supplier-products!5', { externalId: 'SP-1' }),
      entry('silos!2', { kind: 'silo', externalId: 'S-1', dependsOn: ['supplier-products!5'] }),
    ]);
    expect((await keptOf(withDep)).entries.map((e) => e.key)).toEqual(['supplier-products!5', 'silos!2']);
  });

  it('keeps the entries in plan order, dependencies included, a dependency on no entry of the plan ignored', async () => {
    const next = plan([
      entry('supplier-products!5', { externalId: 'SP-1' }),
      entry('supplier-products!2', { externalId: 'SP-2' }),
      entry('supplier-companies!2', { kind: 'supplier_company', externalId: 'SC-1' }),
      entry('silos!2', { kind: 'silo', externalId: 'S-1', dependsOn: ['supplier-products!5', 'nope!1'] }),
      entry('supplier-products!3', { externalId: 'SP-9' }),
    ]);
    const kept = await keptOf(next);
    expect(kept.entries.map((e) => e.key)).toEqual(['supplier-products!5', 'supplier-products!2', 'silos!2']);
    expect(kept.entries).toEqual([next.entries[0], next.entries[1], next.entries[3]]);
    expect(kept.excluded).toBe(2);
    expect(kept.summary).toEqual({
      bySheet: { 'supplier-products': { create: 2 }, silos: { create: 1 } },
      byAction: { create: 3 },
      entries: 3,
      rows: 3,
    });
  });
});

describe('errors of the core in words', () => {
  it('passes on the words of a plain Error, keeps bugs and service errors as they are', async () => {
    const { inWords } = await import('../../core/ipc/errors.js');
    const { AppError } = await import('../../core/app/errors.js');
    const w = inWords(new Error('The API key belongs to another manufacturer than job X.\n    at stack line'));
    expect(w).toBeInstanceOf(AppError);
    expect((w as InstanceType<typeof AppError>).message).toBe(
      'The API key belongs to another manufacturer than job X.',
    );
    const bug = new TypeError('x is undefined');
    expect(inWords(bug)).toBe(bug);
    class ApiError extends Error {}
    const api = new ApiError('403');
    expect(inWords(api)).toBe(api);
  });
});

describe("the workbook's rows a dry-run page shows", () => {
  const sheet = (name: string, rows: number[]): ParsedSheet =>
    ({
      name,
      sheetName: name,
      columns: {},
      rows: rows.map((row, k) => ({ row, values: { external_id: `${name}-${row}-${k}` } })),
    }) as unknown as ParsedSheet;
  /** The sheet's rows, counting how many are read. */
  const counted = (s: ParsedSheet): { sheet: ParsedSheet; reads: () => number } => {
    let n = 0;
    const rows = new Proxy(s.rows, {
      get(target, p, receiver) {
        if (typeof p === 'string' && /^\d+$/.test(p)) n++;
        return Reflect.get(target, p, receiver) as unknown;
      },
    });
    return { sheet: { ...s, rows }, reads: () => n };
  };

  it('finds rows in ascending order without indexing every row', () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => i + 2);
    const { sheet: products, reads } = counted(sheet('supplier-products', numbers));
    const lookup = rowLookup({ sheets: [products, sheet('silos', [2, 3, 20_000_005])] });
    for (const row of [2, 3, 5000, 10_001]) expect(lookup('supplier-products', row)?.row).toBe(row);
    // A binary search: a few rows read per lookup, not every row of the sheet once.
    expect(reads()).toBeLessThan(4 * 16);
    expect(lookup('silos', 20_000_005)?.values.external_id).toBe('silos-20000005-2');
    expect(lookup('supplier-products', 1)).toBeUndefined();
    expect(lookup('supplier-products', 10_002)).toBeUndefined();
    expect(lookup('materials', 2)).toBeUndefined();
  });

  it('finds rows of a sheet not in ascending order, the last row of a number counting', () => {
    const lookup = rowLookup({ sheets: [sheet('silos', [5, 2, 9, 2, 7])] });
    for (const row of [5, 9, 7]) expect(lookup('silos', row)?.row).toBe(row);
    expect(lookup('silos', 2)?.values.external_id).toBe('silos-2-3');
    expect(lookup('silos', 3)).toBeUndefined();
    const empty: ParsedRow[] = [];
    expect(rowLookup({ sheets: [{ ...sheet('silos', []), rows: empty }] })('silos', 2)).toBeUndefined();
  });
});
