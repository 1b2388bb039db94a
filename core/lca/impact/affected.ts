/**
 * Which product instances a job affects, from its plan entries and the service's BOMs (pure: the reads are in
 * read.ts). An instance is affected when its BOM is replaced, when its production figures change, or when a
 * component of its BOM is created, updated or deleted by the job: a supplier product, a silo, a supplier
 * product in one of its silos, a prechain product, or — transitively — the product instance a prechain product
 * of its BOM stands for. A component counts whether the instance uses it now (the service's BOM and silos) or
 * after the job (the plan's BOM replaces and silo writes), so a component swapped in names its rows too.
 */
import { decodeRow } from '../../workbook/sheet-parts.js';
import type { Plan, PlanEntry, RowRef } from '../../jobs/types.js';
import type {
  AffectedInstance,
  AffectedPlant,
  AffectedSet,
  BomComponent,
  ImpactCause,
  ImpactCauseKind,
  InstanceBom,
  ServiceComponents,
} from './types.js';

/** The actions that change what the LCA reads. */
const CHANGING = new Set(['create', 'update', 'replace', 'delete']);
const COMPONENT_KINDS = new Set(['supplier_product', 'silo', 'prechain_product']);

type Sources = Pick<Plan, 'sheetNames' | 'sheetParts'>;

/** `sheet!row` of a plan row in the name of its source (a CSV's file, a workbook's own sheet name). */
export function rowWords(plan: Sources, r: RowRef): string {
  const at = decodeRow(plan.sheetParts?.[r.sheet], plan.sheetNames[r.sheet] ?? r.sheet, r.row);
  return `${at.sheetName}!${at.row}`;
}

/** Whether a plan entry changes a component a BOM can use (then the service's BOMs must be read). */
export function changesComponent(e: PlanEntry): boolean {
  return COMPONENT_KINDS.has(e.kind) && CHANGING.has(e.action) && (e.action !== 'delete' || e.id !== null);
}

/** Whether a plan entry can affect an instance's LCA at all. */
export function affectsLca(e: PlanEntry): boolean {
  return (
    changesComponent(e) ||
    (e.kind === 'bom' && e.action === 'replace') ||
    (e.kind === 'production' && CHANGING.has(e.action))
  );
}

const lower = (v: unknown): string | null => (typeof v === 'string' ? v.toLowerCase() : null);

/** The value at `path` of an entry's body, or the key of the entry creating it (refs). */
function idsAt(e: PlanEntry, list: string, field: string): (string | null)[] {
  const items = e.body?.[list];
  if (!Array.isArray(items)) return [];
  return (items as Record<string, unknown>[]).map((it, i) => {
    const ref = e.refs?.find((r) => r.path[0] === list && r.path[1] === i && r.path[2] === field);
    return ref ? `key:${ref.key}` : lower(it[field]);
  });
}

function causeOf(plan: Sources, e: PlanEntry, kind: ImpactCauseKind, via?: ImpactCause['via']): ImpactCause {
  const rows = e.rows.length ? e.rows : [{ sheet: e.sheet, row: e.row }];
  return {
    kind,
    action: e.action,
    entryKey: e.key,
    label: e.label,
    code: e.externalId,
    ref: e.id?.toLowerCase() ?? null,
    ...(e.bomDiff && {
      components: [...e.bomDiff.added, ...e.bomDiff.removed, ...e.bomDiff.changed].map((c) => c.code),
    }),
    ...(via && { via }),
    rows,
    where: rows.map((r) => rowWords(plan, r)),
  };
}

/**
 * The instances the plan affects, per plant. `service`: the instances of the key's plants with their BOMs, and
 * the silos and prechain products (null when the plan changes no component: only its BOM replaces and
 * production figures count, and nothing was read).
 */
export function affectedInstances(
  plan: Sources,
  entries: Iterable<PlanEntry>,
  service: ({ instances: InstanceBom[] } & ServiceComponents) | null,
  unchecked: string[] = [],
): AffectedSet {
  // The plan's component writes by the id they change (and by `key:` for the ones it creates).
  const changed = new Map<string, PlanEntry>();
  const bomReplaces: PlanEntry[] = [];
  const production: PlanEntry[] = [];
  const plannedSiloItems = new Map<string, (string | null)[]>();
  const plannedPrechainInstance = new Map<string, string | null>();
  const createdInstances = new Map<string, { plant_id: string | null }>();
  for (const e of entries) {
    if (e.kind === 'product_instance' && e.action === 'create' && e.externalId)
      createdInstances.set(e.externalId, { plant_id: lower(e.body?.plant_id) });
    if (!affectsLca(e)) continue;
    if (e.kind === 'bom') bomReplaces.push(e);
    else if (e.kind === 'production') production.push(e);
    else {
      const id = e.id?.toLowerCase() ?? null;
      if (id) changed.set(id, e);
      changed.set(`key:${e.key}`, e);
      if (e.kind === 'silo' && e.action !== 'delete' && Array.isArray(e.body?.items)) {
        const items = idsAt(e, 'items', 'supplier_product_id');
        if (id) plannedSiloItems.set(id, items);
        plannedSiloItems.set(`key:${e.key}`, items);
      }
      if (e.kind === 'prechain_product' && e.body && 'product_instance_id' in e.body) {
        const ref = e.refs?.find((r) => r.path[0] === 'product_instance_id');
        const inst = ref ? `key:${ref.key}` : lower(e.body.product_instance_id);
        if (id) plannedPrechainInstance.set(id, inst);
        plannedPrechainInstance.set(`key:${e.key}`, inst);
      }
    }
  }

  // Every instance: the service's, then those the plan creates (known by their BOM entry).
  interface Node {
    id: string | null;
    external_id: string | null;
    plant_id: string | null;
    plant_code: string | null;
    entryKey?: string;
    /** Its components now and after the job (refs: ids, or `key:` of an entity the job creates). */
    components: { type: string; ref: string }[];
    causes: ImpactCause[];
  }
  const nodes = new Map<string, Node>();
  const byCode = new Map<string, Node>();
  for (const i of service?.instances ?? []) {
    const n: Node = {
      id: i.id.toLowerCase(),
      external_id: i.external_id,
      plant_id: lower(i.plant_id),
      plant_code: i.plant_code ?? null,
      components: (i.bom ?? []).map((c: BomComponent) => ({ type: c.type, ref: c.ref.toLowerCase() })),
      causes: [],
    };
    nodes.set(n.id!, n);
    if (n.external_id) byCode.set(n.external_id, n);
  }
  const nodeOf = (e: PlanEntry): Node => {
    const id = e.id?.toLowerCase() ?? null;
    const known = (id && nodes.get(id)) || (e.externalId ? byCode.get(e.externalId) : undefined);
    if (known) return known;
    const created = e.externalId ? createdInstances.get(e.externalId) : undefined;
    const n: Node = {
      id,
      external_id: e.externalId,
      plant_id: created?.plant_id ?? lower(e.plantIds?.[0]),
      plant_code: null,
      ...(id === null && { entryKey: e.key }),
      components: [],
      causes: [],
    };
    nodes.set(id ?? `key:${e.key}`, n);
    if (n.external_id) byCode.set(n.external_id, n);
    return n;
  };
  for (const e of bomReplaces) {
    const n = nodeOf(e);
    if (n.id === null) n.entryKey = e.key;
    n.causes.push(causeOf(plan, e, 'bom'));
    const types = Array.isArray(e.body?.bom) ? (e.body.bom as Record<string, unknown>[]).map((c) => c.type) : [];
    idsAt(e, 'bom', 'ref').forEach((ref, i) => {
      if (ref && !n.components.some((c) => c.ref === ref)) n.components.push({ type: String(types[i]), ref });
    });
  }
  for (const e of production) nodeOf(e).causes.push(causeOf(plan, e, 'production'));

  const silos = new Map<string, { code: string | null; items: Set<string> }>();
  for (const s of service?.silos ?? [])
    silos.set(s.id.toLowerCase(), { code: s.external_id, items: new Set(s.items.map((x) => x.toLowerCase())) });
  for (const [id, items] of plannedSiloItems) {
    const s = silos.get(id) ?? { code: changed.get(id)?.externalId ?? null, items: new Set<string>() };
    for (const it of items) if (it) s.items.add(it);
    silos.set(id, s);
  }
  const prechainOf = new Map<string, { code: string | null; instances: Set<string> }>();
  for (const p of service?.prechainProducts ?? [])
    prechainOf.set(p.id.toLowerCase(), {
      code: p.external_id,
      instances: new Set(p.product_instance_id ? [p.product_instance_id.toLowerCase()] : []),
    });
  for (const [id, inst] of plannedPrechainInstance) {
    const p = prechainOf.get(id) ?? { code: changed.get(id)?.externalId ?? null, instances: new Set<string>() };
    if (inst) p.instances.add(inst);
    prechainOf.set(id, p);
  }

  // Direct and silo uses.
  for (const n of nodes.values())
    for (const c of n.components) {
      const e = changed.get(c.ref);
      if (e) n.causes.push(causeOf(plan, e, e.kind as ImpactCauseKind));
      if (c.type === 'silo')
        for (const it of silos.get(c.ref)?.items ?? []) {
          const sp = changed.get(it);
          if (sp && sp.kind === 'supplier_product')
            n.causes.push(
              causeOf(plan, sp, 'supplier_product', { type: 'silo', ref: c.ref, code: silos.get(c.ref)!.code }),
            );
        }
    }
  // Prechain products standing for an affected instance, until nothing changes.
  const affected = (n: Node) => n.causes.length > 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const n of nodes.values())
      for (const c of n.components) {
        if (c.type !== 'prechain_product') continue;
        const p = prechainOf.get(c.ref);
        for (const instId of p?.instances ?? []) {
          const other = nodes.get(instId);
          if (!other || other === n || !affected(other)) continue;
          for (const cause of other.causes) {
            if (cause.kind === 'prechain_instance') continue;
            if (n.causes.some((x) => x.entryKey === cause.entryKey && x.via?.ref === c.ref)) continue;
            n.causes.push({
              ...cause,
              kind: 'prechain_instance',
              of_kind: cause.kind,
              via: { type: 'prechain_product', ref: c.ref, code: p!.code },
            });
            grew = true;
          }
        }
      }
  }

  const instances: AffectedInstance[] = [];
  for (const n of nodes.values()) {
    if (!affected(n)) continue;
    const seen = new Set<string>();
    const causes = n.causes.filter((c) => {
      const k = `${c.entryKey}|${c.kind}|${c.via?.ref ?? ''}`;
      return seen.has(k) ? false : (seen.add(k), true);
    });
    const rows = [...new Set(causes.flatMap((c) => c.where))].sort((a, b) =>
      a.localeCompare(b, 'en', { numeric: true }),
    );
    instances.push({
      id: n.id,
      external_id: n.external_id,
      plant_id: n.plant_id,
      plant_code: n.plant_code,
      ...(n.entryKey && { entryKey: n.entryKey }),
      causes,
      rows,
    });
  }
  instances.sort(
    (a, b) =>
      (a.plant_code ?? a.plant_id ?? '').localeCompare(b.plant_code ?? b.plant_id ?? '') ||
      (a.external_id ?? a.id ?? '').localeCompare(b.external_id ?? b.id ?? '', 'en', { numeric: true }),
  );
  const plants = new Map<string, AffectedPlant>();
  for (const i of instances) {
    const k = i.plant_id ?? '';
    const p = plants.get(k) ?? { plant_id: i.plant_id, plant_code: i.plant_code, count: 0, instances: [] };
    p.count++;
    p.instances.push(i.external_id ?? i.id ?? i.entryKey ?? '');
    plants.set(k, p);
  }
  const unread = (service?.instances ?? []).filter((i) => i.bom === null);
  return {
    instances,
    byPlant: [...plants.values()],
    bomsRead: service !== null,
    unchecked: [
      ...unread.map((i) => `The BOM of product instance ${i.external_id ?? i.id} could not be read.`),
      ...unchecked,
    ],
  };
}
