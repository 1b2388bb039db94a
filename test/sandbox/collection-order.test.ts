/**
 * The sandbox's page order (a Collection's active rows by id) kept lazily: inserts, bulk inserts, deletes and
 * loads in any mix give exactly the active rows sorted by id, counted right, with each external_id found only
 * while its row is active — checked against a plain model over random operations.
 */
import { describe, expect, it } from 'vitest';
import { Collection } from '../../sandbox/collection.js';

interface E {
  id: string;
  external_id: string | null;
  n: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('Collection page order', () => {
  it('matches a sorted model through 3,000 random inserts, bulk inserts, deletes, reads and a reload', () => {
    const rand = rng(42);
    const c = new Collection<E>('things');
    const model = new Map<string, E>();
    const deleted = new Set<string>();
    let n = 0;
    const newE = (): E => {
      n++;
      const id = `${Math.floor(rand() * 1e9)
        .toString(16)
        .padStart(8, '0')}-${n}`;
      return { id, external_id: rand() < 0.8 ? `EXT-${n}` : null, n };
    };
    const check = () => {
      const ids = [...model.keys()].sort();
      expect(c.activeIds()).toEqual(ids);
      expect(c.activeRows().map((r) => r.data.id)).toEqual(ids);
      expect([...c.active()].map((e) => e.id)).toEqual(ids);
      expect(c.counts()).toEqual({ active: model.size, deleted: deleted.size });
    };
    for (let step = 0; step < 3000; step++) {
      const r = rand();
      if (r < 0.45) {
        const e = newE();
        c.insert(e);
        model.set(e.id, e);
      } else if (r < 0.5) {
        const batch = Array.from({ length: 1 + Math.floor(rand() * 20) }, newE);
        c.insertMany(batch);
        for (const e of batch) model.set(e.id, e);
      } else if (r < 0.75 && model.size > 0) {
        const ids = [...model.keys()];
        const id = ids[Math.floor(rand() * ids.length)];
        const gone = c.markDeleted(id);
        expect(gone.id).toBe(id);
        if (gone.external_id) expect(c.findByExternalId(gone.external_id)).toBeUndefined();
        model.delete(id);
        deleted.add(id);
        expect(c.get(id)).toBeUndefined();
      } else if (r < 0.95) {
        check();
      } else {
        const e = [...model.values()][Math.floor(rand() * model.size)];
        if (e?.external_id) expect(c.findByExternalId(e.external_id)).toEqual(e);
      }
    }
    check();
    const reloaded = new Collection<E>('things');
    reloaded.load(c.dump());
    expect(reloaded.activeIds()).toEqual(c.activeIds());
    expect(reloaded.counts()).toEqual(c.counts());
  });

  it('a row deleted while a walk over the active rows is under way is not handed out after', () => {
    const c = new Collection<E>('things');
    for (let i = 0; i < 10; i++) c.insert({ id: `id-${i}`, external_id: null, n: i });
    const seen: string[] = [];
    for (const e of c.active()) {
      seen.push(e.id);
      if (e.id === 'id-2') c.markDeleted('id-5');
    }
    expect(seen).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-6', 'id-7', 'id-8', 'id-9']);
  });
});
