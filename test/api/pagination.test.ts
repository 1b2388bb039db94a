/** Pagination and resolution of codes by cost, against the in-process sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkPages, type Page } from '../../core/api/index.js';
import { walkItemsAhead } from '../../core/api/pagination.js';
import { bulkSupplierProducts, client, lastSeq, requestsSince, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox('empty');
  await bulkSupplierProducts(sb, 1001, 'PG-');
});
afterAll(() => sb.close());

describe('pagination', () => {
  for (const limit of [1, 7, 200]) {
    it(`walks all 1,001 entities at limit ${limit}, one request per page, limit fixed, first without cursor`, async () => {
      const c = client(sb);
      const since = await lastSeq(sb);
      const ids = new Set<string>();
      let n = 0;
      for await (const sp of c.supplierProducts.walk({ limit })) {
        ids.add(sp.id);
        n++;
      }
      await c.close();
      expect(n).toBe(1001);
      expect(ids.size).toBe(1001);
      const log = (await requestsSince(sb, since)).entries.filter((e) => e.path === '/v2/supplier-products');
      // ⌈1001/limit⌉ pages (a service may also close a full last page with one more, empty, page).
      const pages = log.length;
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(1001 / limit));
      expect(pages).toBeLessThanOrEqual(Math.ceil(1001 / limit) + 1);
      const queries = log.map((e) => new URLSearchParams(e.query));
      expect(queries[0].has('cursor')).toBe(false);
      for (const q of queries) expect(q.get('limit')).toBe(String(limit));
      expect(new Set(queries.slice(1).map((q) => q.get('cursor'))).size).toBe(pages - 1);
      expect(log.every((e) => e.status === 200)).toBe(true);
    });
  }

  it('keeps filters fixed across pages and uses limit 200 for bulk walks by default', async () => {
    const c = client(sb);
    const since = await lastSeq(sb);
    const hits = [];
    for await (const sp of c.supplierProducts.walk({ external_id: 'PG-0500' })) hits.push(sp.external_id);
    expect(hits).toEqual(['PG-0500']);
    let n = 0;
    for await (const _ of c.supplierProducts.walk()) n++;
    expect(n).toBe(1001);
    await c.close();
    const log = (await requestsSince(sb, since)).entries;
    expect(new URLSearchParams(log[0].query).get('external_id')).toBe('PG-0500');
    expect(log.slice(1).every((e) => new URLSearchParams(e.query).get('limit') === '200')).toBe(true);
  });

  it('does not end at a short page nor at a full page, only at next_cursor null', async () => {
    // Pages as a service may send them: a short page in the middle, a full page that is the last.
    const pages: Page<number>[] = [
      { data: [1, 2, 3], next_cursor: 'a' },
      { data: [4], next_cursor: 'b' },
      { data: [], next_cursor: 'c' },
      { data: [5, 6, 7], next_cursor: null },
    ];
    const seen: (string | undefined)[] = [];
    const out: number[] = [];
    for await (const p of walkPages<number>(async (cursor) => {
      seen.push(cursor);
      return pages[seen.length - 1];
    }))
      out.push(...p.data);
    expect(out).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen).toEqual([undefined, 'a', 'b', 'c']);
  });

  it('refuses an out-of-range limit before sending', async () => {
    const c = client(sb);
    await expect(c.supplierProducts.list({ limit: 201 })).rejects.toThrow(/limit/);
    await expect(c.supplierProducts.list({ limit: 0 })).rejects.toThrow(/limit/);
    expect(c.stats().requests).toBe(0);
    await c.close();
  });
});

describe('a walk that asks each next page ahead', () => {
  it('asks the next page before the items of this one are used, and nothing beyond the last', async () => {
    const pages: Page<number>[] = [
      { data: [1, 2], next_cursor: 'a' },
      { data: [3, 4], next_cursor: 'b' },
      { data: [5], next_cursor: null },
    ];
    const asked: (string | undefined)[] = [];
    const fetchRaw = async (cursor: string | undefined) => {
      asked.push(cursor);
      return pages[cursor === undefined ? 0 : cursor === 'a' ? 1 : 2];
    };
    const seen: [number, number][] = [];
    for await (const n of walkItemsAhead<number>(fetchRaw, (raw) => raw as Page<number>)) seen.push([n, asked.length]);
    // item 1 (first page) is used with the second page asked already; item 3 with the third
    expect(seen).toEqual([
      [1, 2],
      [2, 2],
      [3, 3],
      [4, 3],
      [5, 3],
    ]);
    expect(asked).toEqual([undefined, 'a', 'b']);
  });

  it('sends the next request before this page is parsed: a dispatch that goes on in microtasks and a turn later is out first', async () => {
    const pages: Page<number>[] = [
      { data: [1], next_cursor: 'a' },
      { data: [2], next_cursor: 'b' },
      { data: [3], next_cursor: null },
    ];
    const order: string[] = [];
    // As undici's request(): the dispatch continues in a microtask, the request is written a turn later.
    const fetchRaw = async (cursor: string | undefined) => {
      await Promise.resolve();
      await new Promise<void>((r) => setImmediate(r));
      order.push(`sent ${cursor ?? 'first'}`);
      return pages[cursor === undefined ? 0 : cursor === 'a' ? 1 : 2];
    };
    const parse = (raw: unknown) => {
      order.push(`parsed ${(raw as Page<number>).data[0]}`);
      return raw as Page<number>;
    };
    for await (const _ of walkItemsAhead<number>(fetchRaw, parse)) void _;
    expect(order).toEqual(['sent first', 'sent a', 'parsed 1', 'sent b', 'parsed 2', 'parsed 3']);
  });

  it('walks the same pages and items as a plain walk, on the service', async () => {
    const c = client(sb);
    const since = await lastSeq(sb);
    const ids: string[] = [];
    for await (const sp of c.supplierProducts.walk({ limit: 200 }, { ahead: true })) ids.push(sp.id);
    const plain: string[] = [];
    for await (const sp of c.supplierProducts.walk({ limit: 200 })) plain.push(sp.id);
    await c.close();
    expect(ids).toEqual(plain);
    const log = (await requestsSince(sb, since)).entries.filter((e) => e.path === '/v2/supplier-products');
    expect(log.length).toBe(2 * Math.ceil(1001 / 200));
  });

  it('refuses a cursor answered twice and tells a page that does not fit', async () => {
    const same = walkItemsAhead<number>(
      async () => ({ data: [1], next_cursor: 'c' }),
      (raw) => raw as Page<number>,
    );
    await expect(async () => {
      for await (const _ of same) void _;
    }).rejects.toThrow('same cursor twice');
    const bad = walkItemsAhead<number>(
      async () => ({ data: 'nope', next_cursor: null }),
      () => {
        throw new Error('unexpected answer');
      },
    );
    await expect(async () => {
      for await (const _ of bad) void _;
    }).rejects.toThrow('unexpected answer');
  });
});

describe('resolution of codes', () => {
  it('resolves 5,000 codes with at most ⌈N/200⌉ + 5 requests, never N', async () => {
    await bulkSupplierProducts(sb, 5000, 'RS-');
    const c = client(sb);
    const codes = Array.from({ length: 5000 }, (_, i) => `RS-${String(i + 1).padStart(4, '0')}`);
    const since = await lastSeq(sb);
    const map = await c.supplierProducts.resolveExternalIds([...codes, 'RS-MISSING']);
    await c.close();
    expect(map.size).toBe(5000);
    for (const code of codes.slice(0, 50)) expect(map.get(code)?.external_id).toBe(code);
    expect(map.has('RS-MISSING')).toBe(false);
    const used = (await requestsSince(sb, since)).entries.length;
    const collection = 1001 + 5000;
    expect(used).toBeLessThanOrEqual(Math.ceil(collection / 200) + 5);
  });

  it('resolves a few codes by ?external_id= lookups, one request each', async () => {
    const c = client(sb);
    const since = await lastSeq(sb);
    const map = await c.supplierProducts.resolveExternalIds(['PG-0001', 'PG-1001', 'PG-1001', 'NOPE']);
    await c.close();
    expect([...map.keys()].sort()).toEqual(['PG-0001', 'PG-1001']);
    const log = (await requestsSince(sb, since)).entries;
    expect(log.length).toBe(3);
    expect(log.every((e) => new URLSearchParams(e.query).has('external_id'))).toBe(true);
  });

  it('stops the walk as soon as every code is found', async () => {
    const c = client(sb);
    const first: string[] = [];
    for await (const sp of c.supplierProducts.walk({ limit: 200 })) {
      if (first.length < 10 && sp.external_id) first.push(sp.external_id);
      if (first.length === 10) break;
    }
    const since = await lastSeq(sb);
    const map = await c.supplierProducts.resolveExternalIds(first);
    await c.close();
    expect(map.size).toBe(10);
    expect((await requestsSince(sb, since)).entries.length).toBe(1);
  });
});
