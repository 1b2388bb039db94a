/**
 * Resolve the per-source breakdown of LCA results to names, so a hotspot reads "CEM I 42,5 R from Zement AG,
 * Werk Lägerdorf, 300 kg" rather than a UUID. The breakdown needs `view:recipes` (spec: "view:recipes reads
 * the per-source impact breakdown"); without it the context says why it is missing instead of failing.
 *
 * Reads only: /v2/me (scopes), each instance's BOM (masses), and the referenced supplier products, silos,
 * prechain products, supplier plants and supplier companies — each id once, a few requests at a time.
 */
import { ApiError, type ApiClient } from '../api/index.js';
import { forEachPooled } from '../jobs/pool.js';
import { type BreakdownContext, type ComponentInfo, type LcaReport, readResults } from './model.js';

const NAMES_CONCURRENCY = 8;

export const BREAKDOWN_NO_SCOPE =
  'The API key lacks the view:recipes scope, which reads the per-source impact breakdown: hotspots cannot be shown. Ask for a key with view:recipes.';
export const BREAKDOWN_NOT_RETURNED =
  'The service returned no per-source breakdown with these results: hotspots cannot be shown.';

interface Named {
  external_id: string | null;
  name: string | null;
}

/** The code and name of an entity read (missing ones, or no entity: null). */
const namedOf = (e: { external_id?: string | null; name?: string | null } | undefined): Named => ({
  external_id: e?.external_id ?? null,
  name: e?.name ?? null,
});

function describeError(e: unknown): string {
  if (e instanceof ApiError) return `${e.err_code}${e.msg ? `: ${e.msg}` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

const joinNames = (xs: (string | null)[]): string | null => {
  const u = [...new Set(xs.filter((x): x is string => !!x))];
  return u.length ? u.join('; ') : null;
};

/**
 * The breakdown context of a report: readable or why not, and per instance its components by name.
 * Never throws for a missing permission or an unresolvable name (noted in `problems`).
 */
export async function resolveBreakdownContext(
  client: ApiClient,
  report: Pick<LcaReport, 'instances'>,
  o: { signal?: AbortSignal } = {},
): Promise<BreakdownContext> {
  const signal = o.signal;
  const problems: string[] = [];
  let hasScope: boolean | null = null;
  try {
    hasScope = (await client.me({ signal })).scopes.includes('view:recipes');
  } catch (e) {
    problems.push(`Could not read the key's scopes (${describeError(e)}).`);
  }
  const withBreakdown = report.instances.filter((i) => readResults(i.results).some((y) => y.breakdown !== null));
  if (hasScope === false) return { readable: false, reason: BREAKDOWN_NO_SCOPE, components: {}, problems };
  if (withBreakdown.length === 0) {
    const anyComputed = report.instances.some((i) => readResults(i.results).some((y) => y.status === 'computed'));
    return {
      readable: false,
      reason: anyComputed ? BREAKDOWN_NOT_RETURNED : null,
      components: {},
      problems,
    };
  }

  // Refs per instance: from the breakdown entries and the BOM.
  const masses = new Map<string, Map<string, { type: string; mass: number }>>();
  const refs = new Map<string, Map<string, string>>(); // instance → ref → type
  for (const i of withBreakdown) {
    const m = new Map<string, string>();
    for (const y of readResults(i.results))
      for (const e of y.breakdown ?? []) if (e.ref) m.set(e.ref.toLowerCase(), e.component_type ?? 'unknown');
    refs.set(i.instance.id, m);
  }
  await forEachPooled(withBreakdown, NAMES_CONCURRENCY, async (i) => {
    try {
      const bom = await client.bom.get(i.instance.id, { signal });
      const mm = new Map<string, { type: string; mass: number }>();
      for (const c of bom) {
        mm.set(c.ref.toLowerCase(), { type: c.type, mass: c.mass_kg });
        refs.get(i.instance.id)!.set(c.ref.toLowerCase(), c.type);
      }
      masses.set(i.instance.id, mm);
    } catch (e) {
      problems.push(
        `BOM of ${i.instance.external_id ?? i.instance.id} not readable (${describeError(e)}): masses left empty.`,
      );
    }
  });

  // Entities by type, each id once.
  const byType = new Map<string, Set<string>>();
  for (const m of refs.values())
    for (const [ref, type] of m) {
      if (!byType.has(type)) byType.set(type, new Set());
      byType.get(type)!.add(ref);
    }
  const supplierProducts = new Map<string, Named & { supplier_plant_id: string | null }>();
  const silos = new Map<string, Named & { items: string[] }>();
  const prechain = new Map<string, Named>();
  const fetchEach = async <T>(
    ids: Iterable<string>,
    what: string,
    get: (id: string) => Promise<T>,
    put: (id: string, v: T) => void,
  ) => {
    await forEachPooled([...ids], NAMES_CONCURRENCY, async (id) => {
      try {
        put(id, await get(id));
      } catch (e) {
        problems.push(`${what} ${id} not readable (${describeError(e)}).`);
      }
    });
  };
  await fetchEach(
    byType.get('silo') ?? [],
    'Silo',
    (id) => client.silos.get(id, { signal }),
    (id, s) => silos.set(id, { ...namedOf(s), items: s.items.map((it) => it.supplier_product_id.toLowerCase()) }),
  );
  const spIds = new Set(byType.get('supplier_product') ?? []);
  for (const s of silos.values()) for (const it of s.items) spIds.add(it);
  await fetchEach(
    spIds,
    'Supplier product',
    (id) => client.supplierProducts.get(id, { signal }),
    (id, sp) =>
      supplierProducts.set(id, {
        ...namedOf(sp),
        supplier_plant_id: sp.supplier_plant_id ? sp.supplier_plant_id.toLowerCase() : null,
      }),
  );
  await fetchEach(
    byType.get('prechain_product') ?? [],
    'Prechain product',
    async (id) => {
      const pp = await client.prechainProducts.get(id, { signal });
      const instId = (pp as { product_instance_id?: unknown }).product_instance_id;
      let name: string | null = null;
      if (typeof instId === 'string') {
        const known = report.instances.find((x) => x.instance.id === instId);
        if (known) name = known.instance.name ?? known.instance.external_id;
        else {
          const inst = await client.productInstances.get(instId, { signal });
          name = (typeof inst.name === 'string' ? inst.name : null) ?? inst.external_id ?? null;
        }
      }
      return { external_id: pp.external_id ?? null, name };
    },
    (id, v) => prechain.set(id, v),
  );

  const plantIds = new Set(
    [...supplierProducts.values()].map((s) => s.supplier_plant_id).filter((x): x is string => !!x),
  );
  const plants = new Map<string, { name: string; company_id: string | null }>();
  await fetchEach(
    plantIds,
    'Supplier plant',
    (id) => client.supplierPlants.get(id, { signal }),
    (id, p) =>
      plants.set(id, {
        name: p.name ?? p.external_id ?? id,
        company_id: p.supplier_company_id ? p.supplier_company_id.toLowerCase() : null,
      }),
  );
  const companyIds = new Set([...plants.values()].map((p) => p.company_id).filter((x): x is string => !!x));
  const companies = new Map<string, string>();
  await fetchEach(
    companyIds,
    'Supplier company',
    (id) => client.supplierCompanies.get(id, { signal }),
    (id, c) => companies.set(id, c.name ?? c.external_id ?? id),
  );

  const supplierOf = (spId: string) => {
    const plant = supplierProducts.get(spId)?.supplier_plant_id;
    const p = plant ? plants.get(plant) : undefined;
    return { plant: p?.name ?? null, company: p?.company_id ? (companies.get(p.company_id) ?? null) : null };
  };
  const components: Record<string, ComponentInfo[]> = {};
  for (const i of withBreakdown) {
    const list: ComponentInfo[] = [];
    for (const [ref, type] of refs.get(i.instance.id)!) {
      const mass = masses.get(i.instance.id)?.get(ref)?.mass ?? null;
      const base = { componentType: type, ref, massKg: mass };
      if (type === 'supplier_product') {
        const sp = supplierProducts.get(ref);
        const s = supplierOf(ref);
        list.push({
          ...base,
          externalId: sp?.external_id ?? null,
          name: sp?.name ?? null,
          supplierCompany: s.company,
          supplierPlant: s.plant,
        });
      } else if (type === 'silo') {
        const silo = silos.get(ref);
        const sup = (silo?.items ?? []).map(supplierOf);
        list.push({
          ...base,
          externalId: silo?.external_id ?? null,
          name: silo?.name ?? null,
          supplierCompany: joinNames(sup.map((x) => x.company)),
          supplierPlant: joinNames(sup.map((x) => x.plant)),
        });
      } else {
        const pp = prechain.get(ref);
        list.push({
          ...base,
          externalId: pp?.external_id ?? null,
          name: pp?.name ?? null,
          supplierCompany: null,
          supplierPlant: null,
        });
      }
    }
    components[i.instance.id] = list;
  }
  return { readable: true, reason: null, components, problems };
}
