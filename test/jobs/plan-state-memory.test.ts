/**
 * What the planner keeps per entry stays small (a 200,000-row plan holds it for every row): the compact ref keeps
 * the label only when it is not the usual `<noun> <external_id>` and carries the facts later rows ask (plant,
 * material, supplier plant) instead of maps of their own; a walk ahead lets go of the codes asked of it once it
 * has ended.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { entryRef, refLabel } from '../../core/jobs/plan-sink.js';
import { CollectionWalk } from '../../core/jobs/service-walks.js';
import type { PlanEntry } from '../../core/jobs/types.js';
import { productEntry } from '../fixtures/plan-entry.js';

const entry = (over: Partial<PlanEntry>): PlanEntry =>
  productEntry(1, {
    level: 2,
    label: 'supplier product SP-1',
    id: '0b7c6a4e-0000-4000-8000-000000000001',
    ...over,
  });

describe('entryRef', () => {
  it('keeps no label when it is the usual one, and refLabel gives it back', () => {
    const ref = entryRef(entry({}));
    expect(ref.label).toBeUndefined();
    expect(refLabel(ref)).toBe('supplier product SP-1');
  });

  it('keeps any other label (a row without a code, an entry of another wording)', () => {
    const noCode = entryRef(entry({ externalId: null, label: 'supplier product (row 2)' }));
    expect(noCode.label).toBe('supplier product (row 2)');
    expect(refLabel(noCode)).toBe('supplier product (row 2)');
    const other = entryRef(entry({ kind: 'bom', label: 'BOM of product instance PI-1', externalId: 'PI-1' }));
    expect(refLabel(other)).toBe('BOM of product instance PI-1');
  });

  it('carries the facts noted of the entry', () => {
    const ref = entryRef(entry({}), { plant: 'p-1', materialKey: 'elementary:m-1', supplierPlantId: null });
    expect(ref).toMatchObject({ plant: 'p-1', materialKey: 'elementary:m-1', supplierPlantId: null });
    expect(entryRef(entry({ kind: 'supplier_company' }), { plant: null })).toMatchObject({ plant: null });
    expect('materialKey' in entryRef(entry({ kind: 'supplier_company' }), { plant: null })).toBe(false);
  });
});

describe('CollectionWalk', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  /** Whether the codes picked are let go once the walk has ended and the pick has answered. */
  async function letGo(walk: CollectionWalk<{ id: string; external_id: string }>): Promise<boolean> {
    let codes: Set<string> | null = new Set(['A', 'B', 'C']);
    const held = new WeakRef(codes);
    const found = await walk.pick(
      codes,
      () => {},
      () => {},
    );
    codes = null;
    expect([...found.keys()]).toEqual(['A', 'B']);
    expect(walk.ended).toBe(true);
    await new Promise((r) => setImmediate(r));
    gc();
    await expect(walk.pick(new Set())).rejects.toThrow(/picked from once/);
    return held.deref() === undefined;
  }

  const items = async function* () {
    yield { id: '1', external_id: 'A' };
    yield { id: '2', external_id: 'B' };
  };

  it('lets go of the codes picked while it ran', async () => {
    expect(await letGo(new CollectionWalk(items))).toBe(true);
  });

  it('lets go of the codes picked after it had ended', async () => {
    const walk = new CollectionWalk(items);
    while (!walk.ended) await new Promise((r) => setImmediate(r));
    expect(await letGo(walk)).toBe(true);
  });
});

describe('the entities a walk keeps', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const PLANT = 'f9494339-abbe-5b0a-988d-4b9e9273f1a2';
  const SUPPLIER_PLANT = 'd4350edd-f9bc-49a3-8f0e-0ef996510039';
  const MATERIAL = 'ef3a7fee-e83c-5c25-9b26-5cb0beec34bd';
  /** The same text as a string of its own, as a page's JSON gives each entity. */
  const fresh = (s: string) => JSON.parse(JSON.stringify(s)) as string;
  const entity = (i: number) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    external_id: `SP-${i}`,
    plant_id: fresh(PLANT),
    supplier_plant_id: fresh(SUPPLIER_PLANT),
    material_type: { category: 'elementary', elementary_id: fresh(MATERIAL) },
    hazardous_substances: [],
  });

  it('hold one copy of each id they refer to, the same values as read', async () => {
    const n = 20_000;
    const codes = new Set(Array.from({ length: n }, (_, i) => `SP-${i}`));
    gc();
    const h0 = process.memoryUsage().heapUsed;
    const asRead = new Map<string, ReturnType<typeof entity>>();
    for (let i = 0; i < n; i++) asRead.set(`SP-${i}`, entity(i));
    gc();
    const h1 = process.memoryUsage().heapUsed;
    const walk = new CollectionWalk(async function* () {
      for (let i = 0; i < n; i++) yield entity(i);
    });
    const kept = await walk.pick(codes);
    gc();
    const h2 = process.memoryUsage().heapUsed;
    expect(kept.size).toBe(n);
    expect(kept.get('SP-7')).toEqual(asRead.get('SP-7'));
    // three ids of 36 characters an entity: ~56 bytes each when every entity has its own copy
    expect((h1 - h0 - (h2 - h1)) / n).toBeGreaterThan(100);
  });
});
