/**
 * The printed plan (cli/output/views.ts formatPlan): a plan whose entries are all unchanged (the nightly re-sync)
 * prints its summary without reading the entries back from the job folder; any other plan reads them once.
 */
import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../core/cli/output/views.js';
import type { PlanEntry, PlanHeader } from '../../core/app/import-job.js';

function header(byAction: PlanHeader['summary']['byAction']): PlanHeader {
  return {
    file: 'resync.xlsx',
    sheetNames: { 'supplier-products': 'supplier-products' },
    sheetColumns: { 'supplier-products': { external_id: 'A' } },
    baseUrl: 'http://127.0.0.1:1',
    maskedKey: 'sk_…abcd',
    options: { createOnly: false },
    summary: { bySheet: { 'supplier-products': byAction }, byAction, entries: 3, rows: 3 },
    requests: 4,
    preflight: { ok: true, scopes: [], plant_ids: [], problems: [], warnings: [] },
  } as unknown as PlanHeader;
}

/** Entries that count how often they were read. */
function counted(entries: PlanEntry[]): { entries: Iterable<PlanEntry>; reads: () => number } {
  let reads = 0;
  return {
    entries: {
      *[Symbol.iterator]() {
        reads++;
        yield* entries;
      },
    },
    reads: () => reads,
  };
}

const entry = (action: PlanEntry['action'], i: number): PlanEntry =>
  ({
    key: `supplier-products!${i + 2}`,
    kind: 'supplier_product',
    level: 2,
    sheet: 'supplier-products',
    row: i + 2,
    rows: [{ sheet: 'supplier-products', row: i + 2 }],
    externalId: `SP-${i}`,
    label: `SP-${i}`,
    action,
    id: `00000000-0000-4000-8000-00000000000${i}`,
  }) as PlanEntry;

describe('formatPlan', () => {
  it('a plan of unchanged entries only: the summary, the entries not read', () => {
    const e = counted([0, 1, 2].map((i) => entry('unchanged', i)));
    const lines = formatPlan(header({ unchanged: 3 }), undefined, e.entries);
    expect(e.reads()).toBe(0);
    expect(lines.join('\n')).toContain('total: 0 create, 3 unchanged (3 rows; 4 requests to plan)');
  });

  it('a plan with an update reads the entries once and shows it', () => {
    const e = counted([entry('unchanged', 0), entry('update', 1), entry('unchanged', 2)]);
    const lines = formatPlan(header({ unchanged: 2, update: 1 }), undefined, e.entries);
    expect(e.reads()).toBe(1);
    expect(lines.join('\n')).toContain('SP-1');
  });
});
