/**
 * Plant and material codes picked out of the catalog walks started before the rows were read
 * (jobs/service-walks.ts, jobs/resolve.ts resolveCodes): the workbook's and the profile's mappings still win, the
 * composites are asked after the elementaries for the codes that are not elementaries, the hints for an unknown
 * code draw on the same names, an unreadable catalog is named as without a walk ahead, and a walk none of whose
 * codes needs the service is stopped at once. A client whose catalog reads throw unless a test allows them: no
 * service, no timing.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../../core/api/index.js';
import { emptyCodeRequests, resolveCodes, type CodeRequests } from '../../core/jobs/resolve.js';
import { CollectionWalk } from '../../core/jobs/service-walks.js';

interface Entry {
  id: string;
  external_id: string;
  name: string;
}

const entry = (prefix: string, code: string): Entry => ({ id: `${prefix}-${code}`, external_id: code, name: code });
const PLANTS = ['PLANT-NORTH', 'PLANT-SOUTH', 'PLANT-EAST', 'PLANT-WEST'].map((c) => entry('plant', c));
const ELEMENTARIES = ['MAT-SAND', 'MAT-GRAVEL', 'MAT-CEMENT'].map((c) => entry('el', c));
const COMPOSITES = ['MAT-RMC', 'MAT-SCREED'].map((c) => entry('co', c));

/**
 * A catalog walked ahead, page after page (each page answered after a turn of the event loop); `fail` ends it
 * with that error after its first page. `pages()` counts the pages asked, `stopped()` whether it was cancelled.
 */
function walkAhead(pages: Entry[][], fail?: Error) {
  let asked = 0;
  let signal: AbortSignal | undefined;
  const walk = new CollectionWalk(async function* (s) {
    signal = s;
    for (const [i, page] of pages.entries()) {
      s.throwIfAborted();
      asked++;
      await new Promise((r) => setImmediate(r));
      if (fail && i > 0) throw fail;
      yield* page;
    }
  });
  return { walk, pages: () => asked, stopped: () => signal?.aborted === true };
}

/** The client's catalog reads: refused, unless `allowed` answers them; `asked` lists the reads made. */
function catalogClient(allowed: Partial<Record<string, (codes?: Set<string>) => Entry[]>> = {}) {
  const asked: string[] = [];
  const read = (what: string) => (codes?: Set<string>) => {
    asked.push(codes ? `${what} ${[...codes].sort().join(',')}` : what);
    const answer = allowed[what];
    if (!answer) throw new Error(`not expected: ${what}`);
    return answer(codes);
  };
  const resource = (name: string) => {
    const resolve = read(`${name}.resolveExternalIds`);
    const walk = read(`${name}.walk`);
    return {
      resolveExternalIds: async (codes: Set<string>) => new Map(resolve(codes).map((e) => [e.external_id, e])),
      walk: () => ({
        async *[Symbol.asyncIterator]() {
          yield* walk();
        },
      }),
    };
  };
  const client = {
    plants: resource('plants'),
    elementaries: resource('elementaries'),
    composites: resource('composites'),
  } as unknown as ApiClient;
  return { client, asked };
}

const inCatalog = (catalog: Entry[]) => (codes?: Set<string>) =>
  codes ? catalog.filter((e) => codes.has(e.external_id)) : catalog;

function requests(plants: string[], materials: string[]): CodeRequests {
  const c = emptyCodeRequests();
  for (const p of plants) c.plant.add(p);
  for (const m of materials) c.material.add(m);
  return c;
}

const noMappings = () => ({ plants: new Map<string, string>(), materials: new Map() });

describe('plant and material codes picked out of the catalog walks ahead', () => {
  it('the mappings win, the service codes come from the walks, the composites are asked after for the rest', async () => {
    const plants = walkAhead([PLANTS.slice(0, 2), PLANTS.slice(2)]);
    const elementaries = walkAhead([ELEMENTARIES]);
    const { client, asked } = catalogClient({ 'composites.resolveExternalIds': inCatalog(COMPOSITES) });
    const workbook = noMappings();
    workbook.plants.set('PLANT-NORTH', 'SHEET-ID');
    workbook.materials.set('MAT-MAPPED', { category: 'composite', id: 'SHEET-MAT' });
    const idx = await resolveCodes(
      client,
      requests(['PLANT-NORTH', 'PLANT-SOUTH', 'PLANT-WEST', 'PLANT-SAVED'], ['MAT-MAPPED', 'MAT-SAND', 'MAT-RMC']),
      workbook,
      { plants: { 'PLANT-SAVED': 'PROFILE-ID' } },
      undefined,
      { plant: plants.walk, material: elementaries.walk },
    );
    expect(Object.fromEntries(idx.plant)).toEqual({
      'PLANT-NORTH': { id: 'sheet-id', source: 'workbook' },
      'PLANT-SAVED': { id: 'profile-id', source: 'profile' },
      'PLANT-SOUTH': { id: 'plant-plant-south', source: 'service' },
      'PLANT-WEST': { id: 'plant-plant-west', source: 'service' },
    });
    expect(Object.fromEntries(idx.material)).toEqual({
      'MAT-MAPPED': { ref: { category: 'composite', composite_id: 'sheet-mat' }, source: 'workbook' },
      'MAT-SAND': { ref: { category: 'elementary', elementary_id: 'el-mat-sand' }, source: 'service' },
      'MAT-RMC': { ref: { category: 'composite', composite_id: 'co-mat-rmc' }, source: 'service' },
    });
    // the plant and elementary catalogs are not read again; the composites only for the code no elementary is
    expect(asked).toEqual(['composites.resolveExternalIds MAT-RMC']);
    expect(idx.unreadable).toEqual({});
    expect(idx.codeOfId.get('plant-plant-west')).toBe('PLANT-WEST');
  });

  it('an unknown plant code: its hints draw on the catalog the walk read to its end, not read again', async () => {
    const plants = walkAhead([PLANTS.slice(0, 2), PLANTS.slice(2)]);
    const { client, asked } = catalogClient();
    const idx = await resolveCodes(client, requests(['PLANT-NORHT'], []), noMappings(), undefined, undefined, {
      plant: plants.walk,
    });
    expect(idx.plant.size).toBe(0);
    expect([...(idx.seen?.plant?.keys() ?? [])].sort()).toEqual(PLANTS.map((p) => p.external_id).sort());
    expect(asked).toEqual([]);
    expect(plants.pages()).toBe(2);
  });

  it('an elementary found at once and a composite code unknown: both catalogs read for the hints, as without a walk ahead', async () => {
    const elementaries = walkAhead([ELEMENTARIES.slice(0, 1), ELEMENTARIES.slice(1)]);
    const { client, asked } = catalogClient({
      'composites.resolveExternalIds': inCatalog(COMPOSITES),
      'composites.walk': inCatalog(COMPOSITES),
      'elementaries.walk': inCatalog(ELEMENTARIES),
    });
    const workbook = noMappings();
    workbook.materials.set('MAT-RMX', { category: 'composite' });
    const idx = await resolveCodes(client, requests([], ['MAT-SAND', 'MAT-RMX']), workbook, undefined, undefined, {
      material: elementaries.walk,
    });
    expect([...idx.material.keys()]).toEqual(['MAT-SAND']);
    expect(asked.sort()).toEqual(['composites.resolveExternalIds MAT-RMX', 'composites.walk', 'elementaries.walk']);
    expect([...(idx.seen?.material?.keys() ?? [])].sort()).toEqual(
      [...ELEMENTARIES, ...COMPOSITES].map((e) => e.external_id).sort(),
    );
  });

  it('a catalog the walk ahead cannot read is named as without one', async () => {
    const refused = new ApiError({
      status: 403,
      err_code: 'err_permission_denied',
      msg: 'no view:materials',
      endpoint: 'GET /v2/elementaries',
    });
    const elementaries = walkAhead([ELEMENTARIES.slice(0, 1), ELEMENTARIES.slice(1)], refused);
    const { client } = catalogClient({ 'composites.resolveExternalIds': () => [] });
    const idx = await resolveCodes(
      client,
      requests([], ['MAT-CEMENT', 'MAT-LIME']),
      noMappings(),
      undefined,
      undefined,
      { material: elementaries.walk },
    );
    expect(idx.material.size).toBe(0);
    expect(idx.unreadable.material).toBe(
      'could not read material types (elementaries) from the service (the key lacks the scope to read them): err_permission_denied no view:materials',
    );
    expect(idx.unreadableParams?.material).toEqual({
      resource: 'material_types_elementaries',
      detail: 'err_permission_denied no view:materials',
      variant: 'permission',
    });
  });

  it('every plant code mapped in the plants sheet: the walk ahead is cancelled at once, its first page the only one asked', async () => {
    const plants = walkAhead([PLANTS.slice(0, 1), PLANTS.slice(1, 2), PLANTS.slice(2)]);
    const elementaries = walkAhead([ELEMENTARIES.slice(0, 1), ELEMENTARIES.slice(1)]);
    const { client, asked } = catalogClient();
    const workbook = noMappings();
    workbook.plants.set('PLANT-NORTH', 'ID-N');
    workbook.plants.set('PLANT-SOUTH', 'ID-S');
    workbook.materials.set('MAT-SAND', { category: 'elementary', id: 'ID-SAND' });
    const idx = await resolveCodes(
      client,
      requests(['PLANT-NORTH', 'PLANT-SOUTH'], ['MAT-SAND']),
      workbook,
      undefined,
      undefined,
      { plant: plants.walk, material: elementaries.walk },
    );
    expect([...idx.plant.values()].map((p) => p.source)).toEqual(['workbook', 'workbook']);
    expect(idx.material.get('MAT-SAND')?.source).toBe('workbook');
    expect(plants.stopped() && elementaries.stopped()).toBe(true);
    // what the walks would have read on, had they not been stopped
    await new Promise((r) => setTimeout(r, 20));
    expect([plants.pages(), elementaries.pages()]).toEqual([1, 1]);
    expect([plants.walk.ended, elementaries.walk.ended]).toEqual([true, true]);
    expect(asked).toEqual([]);
  });
});
