/**
 * planImport: the dry run. Resolves every code of the workbook against the live service in bulk, reads the
 * BOMs it will replace, and gives each row an action (create / update with field-level before → after /
 * unchanged / blocked / conflict / skipped_update; per BOM: replace with the component diff, or unchanged).
 * References to rows created in the same import become `dependsOn` + "after create of X". Preflight (/v2/me):
 * rows whose operation needs a scope the key lacks or a plant it cannot reach are blocked with the reason.
 * The plan is plain data: saved with the job, shown by the UI, printed by the CLI.
 */
import { ApiError, type ApiClient, type Me } from '../api/index.js';
import { preflightReport, type PlannedOperation } from '../api/preflight.js';
import { maskApiKey, TRANSPORT_MODALITIES } from '../spec/constants.js';
import { checkSiloItems, type SiloItemFacts } from '../spec/rules.js';
import { closestCodes } from '../workbook/similar.js';
import type { Operation } from '../spec/scopes.js';
import type {
  DataSheetName,
  EntitySheetName,
  IssueParams,
  ParsedWorkbook,
  RowAction,
  ValidationReport,
} from '../workbook/types.js';
import {
  bomDiff,
  display,
  extractRefs,
  hazardChanges,
  isPending,
  mergeRoute,
  pending,
  routeChanges,
  sameScalar,
  siloItemChanges,
  type BomWanted,
  type Hazard,
  type Pending,
  type SiloItemWanted,
} from './diff.js';
import { forEachPooled } from './pool.js';
import {
  emptyCodeRequests,
  materialKey,
  resolveCodes,
  type CodeRequests,
  type ProfileMappings,
  type ServiceIndex,
  type WorkbookMappings,
} from './resolve.js';
import { ArrayPlanSink, entryRef, JsonlPlanSink, SummaryCounter, type EntryRef, type PlanSink } from './plan-sink.js';
import { snapshotOf } from './snapshot.js';
import type {
  EntityKind, IdentifiedKind,
  FieldChange,
  RefSlot,
  Plan,
  PlanHeader,
  PlanAction,
  PlanEntry,
  PlanProblem,
  PlanProblemCode,
  RowRef,
} from './types.js';
import { indexWorkbook, rawCode, type WbRow, type WorkbookRows } from './workbook-rows.js';

export interface PlanProgress {
  phase: 'preflight' | 'resolving' | 'reading_boms' | 'planning';
  done: number;
  total: number;
}

export interface PlanContext {
  client: ApiClient;
  /** Expected manufacturer (e.g. of the saved profile): planning refuses a key of another one. */
  manufacturerId?: string;
  mappings?: ProfileMappings;
  options?: {
    createOnly?: boolean;
    /** Sheets to mirror: their type's entities with an external_id that are not in the sheet are deleted. */
    mirror?: DataSheetName[];
    /** Most deletes one mirrored sheet may make (default: 10 % of the type's entities with an external_id, at least 5). */
    maxDeletes?: number;
  };
  /** C1's validateWorkbook(parsed) report; without it the planner uses the reader's issues and row schemas. */
  validation?: ValidationReport;
  signal?: AbortSignal;
  onProgress?: (p: PlanProgress) => void;
}

export const LEVEL: Record<EntityKind, number> = {
  supplier_company: 0,
  supplier_plant: 1,
  supplier_product: 2,
  silo: 3,
  product_instance: 4,
  prechain_product: 5,
  bom: 6,
  production: 6,
};

/**
 * Levels of deletes: after every create and update (BOM changes are level 6), in reverse dependency order, so
 * a delete whose references this import removes runs once they are gone.
 */
export const DELETE_LEVEL: Record<IdentifiedKind, number> = {
  prechain_product: 7,
  product_instance: 8,
  silo: 9,
  supplier_product: 10,
  supplier_plant: 11,
  supplier_company: 12,
};

/** The entity sheets (the sheets whose rows are entities with an external_id: they take every row action). */
export const ENTITY_SHEETS: Partial<Record<DataSheetName, IdentifiedKind>> &
  Record<EntitySheetName, IdentifiedKind> = {
  'supplier-companies': 'supplier_company',
  'supplier-plants': 'supplier_plant',
  'supplier-products': 'supplier_product',
  silos: 'silo',
  'product-instances': 'product_instance',
  'prechain-products': 'prechain_product',
};

/** Default cap of a mirror: 10 % of the type's entities with an external_id, rounded down, at least 5. */
export function defaultMaxDeletes(managed: number): number {
  return Math.max(5, Math.floor(managed / 10));
}

export const RESOURCE: Record<IdentifiedKind, string> = {
  supplier_company: 'supplierCompanies',
  supplier_plant: 'supplierPlants',
  supplier_product: 'supplierProducts',
  silo: 'silos',
  product_instance: 'productInstances',
  prechain_product: 'prechainProducts',
};

const NOUN: Record<EntityKind, string> = {
  supplier_company: 'supplier company',
  supplier_plant: 'supplier plant',
  supplier_product: 'supplier product',
  silo: 'silo',
  product_instance: 'product instance',
  prechain_product: 'prechain product',
  bom: 'BOM',
  production: 'production figures',
};

const NOUNS: Record<EntityKind, string> = {
  supplier_company: 'supplier companies',
  supplier_plant: 'supplier plants',
  supplier_product: 'supplier products',
  silo: 'silos',
  product_instance: 'product instances',
  prechain_product: 'prechain products',
  bom: 'BOMs',
  production: 'production figures',
};

const COMPONENT_KIND: Record<string, IdentifiedKind> = {
  supplier_product: 'supplier_product',
  silo: 'silo',
  prechain_product: 'prechain_product',
};

type Obj = Record<string, unknown>;
type Ref =
  | { state: 'id'; id: string }
  | { state: 'pending'; key: string; code: string }
  | { state: 'blocked'; key: string }
  | { state: 'missing'; reason: string; code: PlanProblemCode; params: IssueParams };

/** Facts of a supplier product after this import (for the silo rules and BOM plants). */
interface ProductFacts {
  plant_id: string | null;
  material_key: string | null;
  supplier_plant_id: string | null;
}

/** Counts of a plan's entries per sheet and action, and the worksheet rows they cover (the plan's summary). */
export function planSummary(entries: readonly PlanEntry[]): Plan['summary'] {
  const c = new SummaryCounter();
  for (const e of entries) c.add(e);
  return c.summary();
}

/** Deletes run after every other entry (the sinks hold them back and write them last). */
const isDeleteEntry = (e: PlanEntry) => e.level > LEVEL.bom;

export async function planImport(parsed: ParsedWorkbook, ctx: PlanContext): Promise<Plan> {
  const sink = new ArrayPlanSink(isDeleteEntry);
  const head = await planInto(parsed, ctx, sink);
  return { ...head, entries: sink.entries };
}

/**
 * The plan with its entries written to `path` as JSON lines as they are decided (in plan order), not held in
 * memory (a job folder's plan-entries.jsonl): what grows with the rows stays on disk.
 */
export async function planImportToFile(parsed: ParsedWorkbook, ctx: PlanContext, path: string): Promise<PlanHeader> {
  const sink = new JsonlPlanSink(path, isDeleteEntry);
  try {
    return await planInto(parsed, ctx, sink);
  } catch (e) {
    sink.abort();
    throw e;
  }
}

async function planInto(parsed: ParsedWorkbook, ctx: PlanContext, sink: PlanSink): Promise<PlanHeader> {
  if (!parsed.readable) {
    const first = parsed.issues.find((i) => i.severity === 'error');
    throw new Error(`The workbook could not be read${first ? `: ${first.message}` : ''}`);
  }
  const { client, signal } = ctx;
  const progress = ctx.onProgress ?? (() => {});
  const startRequests = client.stats().requests;
  progress({ phase: 'preflight', done: 0, total: 1 });
  const me = await client.me({ signal });
  if (ctx.manufacturerId && ctx.manufacturerId.toLowerCase() !== me.manufacturer_id.toLowerCase()) {
    throw new Error(
      `The API key belongs to another manufacturer (${me.manufacturer_id}) than the one expected (${ctx.manufacturerId}).`,
    );
  }
  const wb = indexWorkbook(parsed, ctx.validation);
  progress({ phase: 'resolving', done: 0, total: 1 });
  const svc = await resolveCodes(client, collectCodes(wb), workbookMappings(wb), ctx.mappings, signal);
  signal?.throwIfAborted();

  const planner = new Planner(wb, svc, me, client.maskedKey, ctx.options?.createOnly ?? false, sink);
  await planner.readBoms(client, signal, progress);
  await planner.readProduction(client, signal);
  progress({ phase: 'planning', done: 0, total: 1 });
  planner.companies();
  planner.supplierPlants();
  planner.supplierProducts();
  planner.silos();
  planner.productInstances();
  planner.prechainProducts();
  planner.boms();
  planner.productionFigures();
  planner.deleteRows();
  const mirror = await planner.mirror(client, ctx.options?.mirror ?? [], ctx.options?.maxDeletes, signal);
  const summary = sink.finish();
  progress({ phase: 'planning', done: 1, total: 1 });

  const sheetNames: Plan['sheetNames'] = {};
  const sheetColumns: Plan['sheetColumns'] = {};
  for (const [name, s] of wb.sheets) {
    sheetNames[name] = s.sheetName;
    sheetColumns[name] = { ...s.columns };
  }
  return {
    format: 'supply-loader/plan@1',
    createdAt: new Date().toISOString(),
    file: parsed.file,
    sheetNames,
    sheetColumns,
    baseUrl: client.baseUrl,
    manufacturerId: me.manufacturer_id,
    maskedKey: client.maskedKey,
    options: {
      createOnly: ctx.options?.createOnly ?? false,
      ...(ctx.options?.mirror?.length ? { mirror: [...ctx.options.mirror] } : {}),
      ...(ctx.options?.maxDeletes !== undefined ? { maxDeletes: ctx.options.maxDeletes } : {}),
    },
    ...(mirror.sheets.length ? { mirror: mirror.sheets, notManaged: mirror.notManaged } : {}),
    ...(planner.ignored.length ? { ignoredRows: planner.ignored } : {}),
    summary,
    requests: client.stats().requests - startRequests,
    preflight: {
      ok: planner.preflightProblems.length === 0,
      scopes: [...me.scopes],
      plant_ids: [...me.plant_ids],
      problems: planner.preflightProblems,
      warnings: preflightReport(me, client.maskedKey, []).warnings.map((w) => w.message),
    },
  };
}

function collectCodes(wb: WorkbookRows): CodeRequests {
  const c = emptyCodeRequests();
  const add = (set: Set<string>, v: string | null) => {
    if (v) set.add(v);
  };
  for (const r of wb.rows('supplier-companies')) add(c.supplier_company, rawCode(r, 'external_id'));
  for (const [sheet, kind] of Object.entries(ENTITY_SHEETS) as [DataSheetName, IdentifiedKind][])
    for (const r of wb.actionRows(sheet, 'delete')) add(c[kind], rawCode(r, 'external_id'));
  for (const r of wb.rows('supplier-plants')) {
    add(c.supplier_plant, rawCode(r, 'external_id'));
    add(c.supplier_company, rawCode(r, 'supplier_company_external_id'));
  }
  for (const r of wb.rows('supplier-products')) {
    add(c.supplier_product, rawCode(r, 'external_id'));
    add(c.supplier_plant, rawCode(r, 'supplier_plant_external_id'));
    add(c.plant, rawCode(r, 'plant_code'));
    add(c.material, rawCode(r, 'material_code'));
  }
  for (const r of wb.rows('hazardous-substances')) add(c.supplier_product, rawCode(r, 'supplier_product_external_id'));
  for (const r of wb.rows('silos')) {
    add(c.silo, rawCode(r, 'external_id'));
    add(c.plant, rawCode(r, 'plant_code'));
  }
  for (const r of wb.rows('silo-items')) {
    add(c.silo, rawCode(r, 'silo_external_id'));
    add(c.supplier_product, rawCode(r, 'supplier_product_external_id'));
  }
  for (const r of wb.rows('product-instances')) {
    add(c.product_instance, rawCode(r, 'external_id'));
    add(c.product, rawCode(r, 'product_external_id'));
    add(c.plant, rawCode(r, 'plant_code'));
  }
  for (const r of wb.rows('prechain-products')) {
    add(c.prechain_product, rawCode(r, 'external_id'));
    add(c.product_instance, rawCode(r, 'product_instance_external_id'));
    add(c.plant, rawCode(r, 'plant_code'));
  }
  for (const r of wb.rows('production')) add(c.product_instance, rawCode(r, 'product_instance_external_id'));
  for (const r of wb.rows('bom')) {
    add(c.product_instance, rawCode(r, 'product_instance_external_id'));
    const kind = COMPONENT_KIND[String(r.values.component_type ?? '')];
    if (kind) add(c[kind], rawCode(r, 'component_external_id'));
  }
  return c;
}

function workbookMappings(wb: WorkbookRows): WorkbookMappings {
  const m: WorkbookMappings = { plants: new Map(), materials: new Map() };
  for (const r of wb.rows('plants')) if (r.typed?.plant_id) m.plants.set(r.typed.plant_code, r.typed.plant_id);
  for (const r of wb.rows('materials')) {
    if (!r.typed) continue;
    const v: { category?: 'elementary' | 'composite'; id?: string } = {};
    if (r.typed.category) v.category = r.typed.category;
    if (r.typed.material_type_id) v.id = r.typed.material_type_id;
    m.materials.set(r.typed.material_code, v);
  }
  return m;
}

/** Draft of one entity entry before its action is decided. */
interface Draft {
  kind: IdentifiedKind;
  key: string;
  sheet: DataSheetName;
  row: number;
  rows: RowRef[];
  externalId: string | null;
  /** API fields: absent = not set, null = clear (#CLEAR), Pending = id of an entity created in this job. */
  desired: Obj;
  /** Wanted transport modalities (absent = not set, null = remove). */
  route?: Partial<Record<string, number | null>>;
  hazards?: Hazard[];
  items?: SiloItemWanted[];
  /** For silos: the silo-items row of each item (to point rule violations at a cell). */
  itemRows?: WbRow<unknown>[];
  problems: PlanProblem[];
  snapshot?: string;
  /** Plants the write touches besides desired.plant_id. */
  plants: string[];
  /** The row's action: `create` only if absent, `update` only if present. */
  rowAction?: RowAction;
}

/** Rows of a child sheet grouped by their owner's code (in sheet order); rows without one apart. */
function groupByOwner<T>(
  rows: Iterable<WbRow<T>>,
  field: string,
): { byOwner: Map<string, WbRow<T>[]>; ownerless: WbRow<T>[] } {
  const byOwner = new Map<string, WbRow<T>[]>();
  const ownerless: WbRow<T>[] = [];
  for (const r of rows) {
    const code = rawCode(r, field);
    if (!code) ownerless.push(r);
    else {
      const list = byOwner.get(code);
      if (list) list.push(r);
      else byOwner.set(code, [r]);
    }
  }
  return { byOwner, ownerless };
}

class Planner {
  readonly preflightProblems: PlanProblem[] = [];
  /** Compact refs of the entries added (the entries themselves are in the sink). */
  private readonly byKey = new Map<string, EntryRef>();
  /** `${kind}:${code}` → key of the entry (first row) that defines the code in this workbook. */
  private readonly defining = new Map<string, string>();
  private readonly productFacts = new Map<string, ProductFacts>();
  private readonly entryPlant = new Map<string, string | null>();
  private readonly serverBoms = new Map<
    string,
    { bom: { type: string; ref: string; mass_kg: number }[] } | { unreadable: string }
  >();
  private readonly codeOfId: (id: string) => string | undefined;
  /** Production figures on the service per instance id (year → quantity), or why they could not be read. */
  private readonly serverProduction = new Map<string, Map<number, number> | { unreadable: string }>();

  constructor(
    private readonly wb: WorkbookRows,
    private readonly svc: ServiceIndex,
    private readonly me: Me,
    private readonly maskedKey: string,
    private readonly createOnly: boolean,
    private readonly sink: PlanSink,
  ) {
    this.codeOfId = (id) => svc.codeOfId.get(id.toLowerCase());
  }

  // ------------------------------------------------------------ references

  private ref(kind: IdentifiedKind, code: string): Ref {
    const key = this.defining.get(`${kind}:${code}`);
    if (key) {
      const e = this.byKey.get(key);
      if (!e || e.action === 'blocked' || e.action === 'conflict') return { state: 'blocked', key };
      if (e.id) return { state: 'id', id: e.id };
      return { state: 'pending', key, code };
    }
    const found = this.svc[kind].get(code);
    if (found) return { state: 'id', id: found.id.toLowerCase() };
    const why = this.svc.unreadable[kind];
    return {
      state: 'missing',
      reason: why ?? `no ${NOUN[kind]} with external_id "${code}" in this workbook or on the service${didYouMean(code, this.knownCodes(kind))}`,
      ...this.unknownCode(kind, 'reference_unknown', { value: code, entityKind: kind, ...hintParam(code, this.knownCodes(kind)) }),
    };
  }

  /** Codes of one kind known on the service or defined in the workbook (for "did you mean …?"). */
  private knownCodes(kind: IdentifiedKind): string[] {
    const out = new Set<string>(this.svc[kind].keys());
    for (const e of this.byKey.values()) if (e.kind === kind && e.externalId) out.add(e.externalId);
    return [...out];
  }

  /** Code and params of an unresolved code: the service's list unreadable, else `code` with `params`. */
  private unknownCode(
    kind: keyof ServiceIndex['unreadable'],
    code: PlanProblemCode,
    params: IssueParams,
  ): { code: PlanProblemCode; params: IssueParams } {
    const unreadable = this.svc.unreadable[kind] ? this.svc.unreadableParams?.[kind] : undefined;
    if (this.svc.unreadable[kind] && !unreadable)
      return { code: 'service_unreadable', params: { detail: this.svc.unreadable[kind] } };
    return unreadable ? { code: 'service_unreadable', params: unreadable } : { code, params };
  }

  /** A reference cell → the value for the body (id or Pending), or a problem at the cell. */
  private refValue(
    d: { problems: PlanProblem[] },
    r: WbRow<unknown>,
    field: string,
    kind: IdentifiedKind,
    code: string,
  ): string | Pending | undefined {
    const ref = this.ref(kind, code);
    if (ref.state === 'id') return ref.id;
    if (ref.state === 'pending') return pending(ref.key, code);
    const at = { sheet: r.sheetName, cell: this.wb.cell(r.sheet, field, r.row), row: r.row, field };
    if (ref.state === 'blocked') {
      const target = this.byKey.get(ref.key);
      d.problems.push({
        kind: 'dependency_blocked',
        ...at,
        message: `${field} "${code}" refers to ${target?.label ?? ref.key} (${rowName(target)}), which is blocked`,
        ...(target
          ? {
              code: 'reference_blocked' as const,
              params: target.externalId
                ? {
                    value: code,
                    targetKind: target.kind,
                    targetCode: target.externalId,
                    targetSheet: target.sheet,
                    targetRow: target.row,
                  }
                : {
                    value: code,
                    targetLabel: target.label,
                    targetSheet: target.sheet,
                    targetRow: target.row,
                    variant: 'row',
                  },
            }
          : {}),
      });
    } else
      d.problems.push({
        kind: 'unresolved',
        ...at,
        message: `${field}: ${ref.reason}`,
        code: ref.code,
        params: ref.params,
      });
    return undefined;
  }

  private plantValue(
    d: { problems: PlanProblem[] },
    r: WbRow<unknown>,
    field: string,
    code: string,
  ): string | undefined {
    const p = this.svc.plant.get(code);
    if (p) return p.id;
    const why = this.svc.unreadable.plant;
    d.problems.push({
      kind: 'unresolved',
      sheet: r.sheetName,
      cell: this.wb.cell(r.sheet, field, r.row),
      row: r.row,
      field,
      message: `${field}: ${why ?? `plant code "${code}" is not in the plants sheet, the profile's mappings or among the plants this API key can see (the key may not reach that plant)${didYouMean(code, this.svc.plant.keys())}`}`,
      ...this.unknownCode('plant', 'plant_unknown', { value: code, ...hintParam(code, this.svc.plant.keys()) }),
    });
    return undefined;
  }

  // ------------------------------------------------------------ entity drafts

  private draft(kind: IdentifiedKind, r: WbRow<unknown>, keyOverride?: string): Draft {
    const code = rawCode(r, 'external_id');
    const d: Draft = {
      kind,
      key: keyOverride ?? `${r.sheet}!${r.row}`,
      sheet: r.sheet,
      row: r.row,
      rows: [{ sheet: r.sheet, row: r.row }],
      externalId: code,
      desired: {},
      problems: [...r.problems],
      plants: [],
    };
    if (r.snapshot) d.snapshot = r.snapshot;
    d.rowAction = r.action;
    if (code) {
      const k = `${kind}:${code}`;
      const first = this.defining.get(k);
      if (first === undefined) this.defining.set(k, d.key);
      else if (!r.problems.some((p) => p.field === 'external_id')) {
        d.problems.push({
          kind: 'duplicate',
          sheet: r.sheetName,
          cell: this.wb.cell(r.sheet, 'external_id', r.row),
          row: r.row,
          field: 'external_id',
          message: `external_id "${code}" appears more than once in ${r.sheetName} (first in ${rowName(this.byKey.get(first))})`,
          code: 'duplicate_external_id',
          params: firstRowParams(code, this.byKey.get(first)),
        });
      }
    }
    return d;
  }

  /**
   * Child rows (hazardous substances, silo items) whose owner is not in its own sheet: an update of the owner's
   * list, with a problem at the first row's owner cell when the service has no such owner.
   */
  private ownerDraft(
    kind: 'supplier_product' | 'silo',
    code: string,
    rows: WbRow<unknown>[],
    attach: (d: Draft, rows: WbRow<unknown>[]) => void,
  ): Draft {
    const first = rows[0];
    const field = `${kind}_external_id`;
    const d: Draft = {
      kind,
      key: `${first.sheet}:${code}`,
      sheet: first.sheet,
      row: first.row,
      rows: [],
      externalId: code,
      desired: {},
      problems: [],
      plants: [],
    };
    attach(d, rows);
    if (!this.svc[kind].get(code)) {
      d.problems.push({
        kind: 'unresolved',
        sheet: first.sheetName,
        cell: this.wb.cell(first.sheet, field, first.row),
        row: first.row,
        field,
        message: `${field}: ${this.svc.unreadable[kind] ?? `no ${NOUN[kind]} with external_id "${code}" in this workbook or on the service`}`,
        ...this.unknownCode(kind, 'reference_unknown', { value: code, entityKind: kind }),
      });
    }
    return d;
  }

  /** Optional scalar: undefined = not set, null = clear. */
  private static opt<T>(v: T | null | undefined): T | null | undefined {
    return v === undefined ? undefined : v;
  }

  companies(): void {
    for (const r of this.wb.rows('supplier-companies')) {
      const d = this.draft('supplier_company', r);
      const t = r.typed;
      if (t) {
        d.desired = { external_id: t.external_id, name: t.name, country: Planner.opt(t.country) };
      }
      this.finish(d);
    }
  }

  supplierPlants(): void {
    for (const r of this.wb.rows('supplier-plants')) {
      const d = this.draft('supplier_plant', r);
      const t = r.typed;
      if (t) {
        d.desired = {
          external_id: t.external_id,
          name: t.name,
          supplier_company_id: this.refValue(
            d,
            r,
            'supplier_company_external_id',
            'supplier_company',
            t.supplier_company_external_id,
          ),
          country: Planner.opt(t.country),
          city: Planner.opt(t.city),
        };
      }
      this.finish(d);
    }
  }

  supplierProducts(): void {
    // Hazardous substances belong to their supplier product: grouped by its code.
    const { byOwner: hazardRows, ownerless } = groupByOwner(
      this.wb.rows('hazardous-substances'),
      'supplier_product_external_id',
    );
    const attachHazards = (d: Draft, rows: WbRow<unknown>[]) => {
      d.rows.push(...rows.map((h) => ({ sheet: h.sheet, row: h.row })));
      const hazards: Hazard[] = [];
      for (const h of rows) {
        const ht = h.typed as { cas_number: string; mass_share: number } | null;
        if (!ht) {
          d.problems.push(
            ...h.problems.map((p) => ({ ...p, message: `hazardous-substances row ${h.row}: ${p.message}` })),
          );
          continue;
        }
        hazards.push({ cas_number: ht.cas_number, mass_share: ht.mass_share });
      }
      d.hazards = hazards;
    };

    const inSheet = new Set<string>();
    for (const r of this.wb.rows('supplier-products')) {
      const d = this.draft('supplier_product', r);
      const t = r.typed;
      const code = rawCode(r, 'external_id');
      if (code && !inSheet.has(code)) {
        inSheet.add(code);
        const hz = hazardRows.get(code);
        if (hz) attachHazards(d, hz);
      }
      if (t) {
        const route: Partial<Record<string, number | null>> = {};
        for (const m of TRANSPORT_MODALITIES) if (t[m] !== undefined) route[m] = t[m] ?? null;
        const material = this.svc.material.get(t.material_code);
        if (!material) {
          d.problems.push({
            kind: 'unresolved',
            sheet: r.sheetName,
            cell: this.wb.cell(r.sheet, 'material_code', r.row),
            row: r.row,
            field: 'material_code',
            message: `material_code: ${this.svc.unreadable.material ?? `material code "${t.material_code}" is not in the materials sheet, the profile's mappings or among the service's elementaries and composites${didYouMean(t.material_code, this.svc.material.keys())}`}`,
            ...this.unknownCode('material', 'material_unknown', { value: t.material_code, ...hintParam(t.material_code, this.svc.material.keys()) }),
          });
        }
        d.desired = {
          external_id: t.external_id,
          name: t.name,
          plant_id: this.plantValue(d, r, 'plant_code', t.plant_code),
          material_type: material?.ref,
          supplier_plant_id:
            t.supplier_plant_external_id === undefined
              ? undefined
              : t.supplier_plant_external_id === null
                ? null
                : this.refValue(d, r, 'supplier_plant_external_id', 'supplier_plant', t.supplier_plant_external_id),
          unit: t.unit,
          epd_id: Planner.opt(t.epd_id),
          lifetime_years: Planner.opt(t.lifetime_years),
          secondary_percentage: Planner.opt(t.secondary_percentage),
          moisture_content_percentage: Planner.opt(t.moisture_content_percentage),
        };
        d.route = route;
      }
      this.finish(d);
    }
    // Hazardous substances of supplier products that are not in the sheet: an update of the product's list.
    for (const [code, rows] of hazardRows) {
      if (!inSheet.has(code))
        this.finish(this.ownerDraft('supplier_product', code, rows, attachHazards), { onlyExisting: true });
    }
    for (const r of ownerless) this.blockedRow('supplier_product', r);
  }

  silos(): void {
    const { byOwner: itemRows, ownerless } = groupByOwner(this.wb.rows('silo-items'), 'silo_external_id');
    const attachItems = (d: Draft, rows: WbRow<unknown>[]) => {
      d.rows.push(...rows.map((h) => ({ sheet: h.sheet, row: h.row })));
      const byProduct = new Map<string, { item: SiloItemWanted; row: WbRow<unknown> }>();
      for (const ir of rows) {
        const it = ir.typed as { supplier_product_external_id: string; year: number; amount: number } | null;
        if (!it) {
          d.problems.push(...ir.problems.map((p) => ({ ...p, message: `silo-items row ${ir.row}: ${p.message}` })));
          continue;
        }
        let entry = byProduct.get(it.supplier_product_external_id);
        if (!entry) {
          const id = this.refValue(
            d,
            ir,
            'supplier_product_external_id',
            'supplier_product',
            it.supplier_product_external_id,
          );
          if (id === undefined) continue;
          entry = {
            item: { supplier_product_id: id, code: it.supplier_product_external_id, annual_items: [] },
            row: ir,
          };
          byProduct.set(it.supplier_product_external_id, entry);
        }
        entry.item.annual_items.push({ year: it.year, amount: it.amount });
      }
      const items = [...byProduct.values()];
      for (const { item } of items) item.annual_items.sort((a, b) => a.year - b.year);
      d.items = items.map((x) => x.item);
      d.itemRows = items.map((x) => x.row);
    };

    const inSheet = new Set<string>();
    for (const r of this.wb.rows('silos')) {
      const d = this.draft('silo', r);
      const code = rawCode(r, 'external_id');
      const t = r.typed;
      if (code && !inSheet.has(code)) {
        inSheet.add(code);
        const rows = itemRows.get(code);
        if (rows) attachItems(d, rows);
      }
      if (t)
        d.desired = {
          external_id: t.external_id,
          name: t.name,
          plant_id: this.plantValue(d, r, 'plant_code', t.plant_code),
        };
      this.checkSilo(d);
      this.finish(d);
    }
    for (const [code, rows] of itemRows) {
      if (inSheet.has(code)) continue;
      const d = this.ownerDraft('silo', code, rows, attachItems);
      this.checkSilo(d);
      this.finish(d, { onlyExisting: true });
    }
    for (const r of ownerless) this.blockedRow('silo', r);
  }

  /** The spec's silo rules on the items this import leaves the silo with (facts from the workbook or the service). */
  private checkSilo(d: Draft): void {
    if (!d.items || d.problems.length > 0) return;
    const existing = d.externalId ? this.svc.silo.get(d.externalId) : undefined;
    const plantId = (typeof d.desired.plant_id === 'string' ? d.desired.plant_id : existing?.plant_id)?.toLowerCase();
    if (!plantId) return;
    const facts: SiloItemFacts[] = [];
    for (const it of d.items) {
      const f = this.factsOf(it.supplier_product_id, it.code);
      if (!f || f.plant_id === null || f.material_key === null) return;
      facts.push({
        supplier_product_id: isPending(it.supplier_product_id)
          ? `00000000-0000-0000-0000-${facts.length.toString().padStart(12, '0')}`
          : it.supplier_product_id,
        product: { plant_id: f.plant_id, material_key: f.material_key, supplier_plant_id: f.supplier_plant_id },
      });
    }
    for (const v of checkSiloItems(plantId, facts)) {
      const m = /^items\[(\d+)\]/.exec(v.path);
      const row = m ? d.itemRows?.[Number(m[1])] : undefined;
      const code = m ? d.items[Number(m[1])]?.code : undefined;
      d.problems.push({
        kind: 'rule',
        sheet: row?.sheetName ?? this.wb.sheetName(d.sheet),
        cell: row ? this.wb.cell(row.sheet, 'supplier_product_external_id', row.row) : null,
        row: row?.row ?? d.row,
        field: 'supplier_product_external_id',
        message: `${v.msg.replace(/supplier product [0-9a-f-]{36}/i, `supplier product ${code ?? ''}`)} (${v.err_code})`,
        code: 'silo_rule',
        params: { errCode: v.err_code, value: code ?? '', variant: siloRuleVariant(v.msg) },
      });
    }
  }

  private factsOf(id: string | Pending, code: string): ProductFacts | undefined {
    const key = this.defining.get(`supplier_product:${code}`);
    if (key && this.productFacts.has(key)) return this.productFacts.get(key);
    if (isPending(id)) return undefined;
    const e = this.svc.supplier_product.get(code);
    // Facts the service left out (optional in responses) are unknown: no check is made on them.
    return e?.plant_id
      ? {
          plant_id: e.plant_id.toLowerCase(),
          material_key: materialKey(e.material_type),
          supplier_plant_id: e.supplier_plant_id ?? null,
        }
      : undefined;
  }

  productInstances(): void {
    for (const r of this.wb.rows('product-instances')) {
      const d = this.draft('product_instance', r);
      const t = r.typed;
      if (t) {
        const product = this.svc.product.get(t.product_external_id);
        if (!product) {
          d.problems.push({
            kind: 'unresolved',
            sheet: r.sheetName,
            cell: this.wb.cell(r.sheet, 'product_external_id', r.row),
            row: r.row,
            field: 'product_external_id',
            message: `product_external_id: ${this.svc.unreadable.product ?? `no product with article number "${t.product_external_id}" on the service (products are created in the web interface)`}`,
            ...this.unknownCode('product', 'product_unknown', { value: t.product_external_id }),
          });
        }
        d.desired = {
          external_id: t.external_id,
          product_id: product?.id.toLowerCase(),
          plant_id: this.plantValue(d, r, 'plant_code', t.plant_code),
          produced_from: t.produced_from,
          produced_to: Planner.opt(t.produced_to),
          name: Planner.opt(t.name),
        };
      }
      this.finish(d);
    }
  }

  prechainProducts(): void {
    for (const r of this.wb.rows('prechain-products')) {
      const d = this.draft('prechain_product', r);
      const t = r.typed;
      if (t) {
        const route: Partial<Record<string, number | null>> = {};
        for (const m of TRANSPORT_MODALITIES) if (t[m] !== undefined) route[m] = t[m] ?? null;
        d.desired = {
          external_id: t.external_id,
          product_instance_id: this.refValue(
            d,
            r,
            'product_instance_external_id',
            'product_instance',
            t.product_instance_external_id,
          ),
          plant_id: this.plantValue(d, r, 'plant_code', t.plant_code),
        };
        d.route = route;
      }
      this.finish(d);
    }
  }

  // ------------------------------------------------------------ BOMs

  async readBoms(
    client: ApiClient,
    signal: AbortSignal | undefined,
    progress: (p: PlanProgress) => void,
  ): Promise<void> {
    const ids = new Map<string, string>();
    for (const r of this.wb.rows('bom')) {
      const code = rawCode(r, 'product_instance_external_id');
      const inst = code ? this.svc.product_instance.get(code) : undefined;
      if (inst) ids.set(inst.id.toLowerCase(), code!);
    }
    const list = [...ids.keys()];
    let done = 0;
    progress({ phase: 'reading_boms', done, total: list.length });
    let fatal: unknown;
    await forEachPooled(
      list,
      8,
      async (id) => {
        try {
          const bom = await client.bom.get(id, { signal });
          this.serverBoms.set(id, {
            bom: bom.map((c) => ({ type: c.type, ref: c.ref.toLowerCase(), mass_kg: c.mass_kg })),
          });
        } catch (e) {
          if (e instanceof ApiError && (e.classification === 'permission' || e.classification === 'validation')) {
            this.serverBoms.set(id, { unreadable: `${e.err_code}: ${e.msg}` });
          } else fatal ??= e;
        }
        progress({ phase: 'reading_boms', done: ++done, total: list.length });
      },
      () => fatal !== undefined || signal?.aborted === true,
    );
    if (fatal !== undefined) throw fatal;
    signal?.throwIfAborted();
  }

  boms(): void {
    const { byOwner, ownerless } = groupByOwner(this.wb.rows('bom'), 'product_instance_external_id');
    for (const r of ownerless) this.blockedRow('bom', r);
    for (const [code, rows] of byOwner) this.bom(code, rows);
  }

  private bom(
    code: string,
    rows: WbRow<{
      product_instance_external_id: string;
      component_type: string;
      component_external_id: string;
      mass_kg: number;
    }>[],
  ): void {
    const first = rows[0];
    const key = `bom:${code}`;
    const problems: PlanProblem[] = [];
    const host = { problems };
    const entry: PlanEntry = {
      key,
      kind: 'bom',
      level: LEVEL.bom,
      sheet: 'bom',
      row: first.row,
      rows: rows.map((r) => ({ sheet: r.sheet, row: r.row })),
      externalId: code,
      label: `BOM of ${code}`,
      action: 'blocked',
      id: null,
    };
    for (const r of rows) if (!r.typed) problems.push(...r.problems);
    const instance = this.refValue(host, first, 'product_instance_external_id', 'product_instance', code);
    const components: BomWanted[] = [];
    const plants = new Set<string>();
    for (const r of rows) {
      const t = r.typed;
      if (!t) continue;
      const kind = COMPONENT_KIND[t.component_type];
      const ref = this.refValue(host, r, 'component_external_id', kind, t.component_external_id);
      if (ref === undefined) continue;
      components.push({ type: t.component_type, ref, code: t.component_external_id, mass_kg: t.mass_kg });
      const p = this.plantOfComponent(kind, t.component_external_id);
      if (p) plants.add(p);
    }
    const instanceEntry = this.byKey.get(this.defining.get(`product_instance:${code}`) ?? '');
    const instPlant = instanceEntry
      ? this.entryPlant.get(instanceEntry.key)
      : this.svc.product_instance.get(code)?.plant_id?.toLowerCase();
    if (instPlant) plants.add(instPlant);
    entry.plantIds = [...plants].sort();
    const snapshot = rows.find((r) => r.snapshot)?.snapshot;

    if (problems.length > 0 || instance === undefined) {
      entry.problems = problems;
      return this.push(entry);
    }
    const instanceId = isPending(instance) ? null : instance;
    const server = instanceId ? this.serverBoms.get(instanceId) : { bom: [] };
    const current = server && 'bom' in server ? server.bom : null;
    if (snapshot && (current === null || snapshotOf('bom', current) !== snapshot)) {
      entry.action = 'conflict';
      entry.problems = [
        conflictProblem(
          first,
          this.wb.cell(first.sheet, 'product_instance_external_id', first.row),
          current === null ? 'could not be read' : 'changed on the service since the export',
          current === null ? 'unreadable' : 'changed',
        ),
      ];
      return this.push(entry);
    }
    entry.id = instanceId;
    const diff = bomDiff(current ?? [], components, this.codeOfId);
    entry.bomDiff = diff;
    const notes: string[] = [];
    if (current === null && server && 'unreadable' in server)
      notes.push(`the current BOM could not be read (${server.unreadable}): it is replaced without a diff`);
    const same = current !== null && diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
    if (same) {
      entry.action = 'unchanged';
      if (notes.length) entry.notes = notes;
      return this.push(entry);
    }
    const body: Obj = { bom: components.map((c) => ({ type: c.type, ref: c.ref, mass_kg: c.mass_kg })) };
    const { body: clean, refs } = extractRefs(body);
    if (isPending(instance)) refs.push({ path: ['$id'], key: instance.$pending, code: instance.code });
    if (this.createOnly && current !== null && current.length > 0) {
      entry.action = 'skipped_update';
      notes.push("create-only: the BOM differs from the service's but is not replaced");
      entry.notes = notes;
      return this.push(entry);
    }
    entry.action = 'replace';
    entry.body = clean;
    if (current !== null) entry.before = { bom: current.map((c) => ({ ...c })) };
    if (refs.length) {
      entry.refs = refs;
      entry.dependsOn = [...new Set(refs.map((r) => r.key))];
      notes.push(...this.afterNotes(refs.map((r) => r.key)));
    }
    if (notes.length) entry.notes = notes;
    this.preflight(entry, 'bom.put');
    this.push(entry);
  }

  // ------------------------------------------------------------ production figures

  /** Read the figures of the instances the production sheet names (one GET each, 8 at a time). */
  async readProduction(client: ApiClient, signal: AbortSignal | undefined): Promise<void> {
    const ids = new Set<string>();
    for (const r of this.wb.rows('production')) {
      const code = rawCode(r, 'product_instance_external_id');
      const inst = code ? this.svc.product_instance.get(code) : undefined;
      if (inst) ids.add(inst.id.toLowerCase());
    }
    let fatal: unknown;
    await forEachPooled(
      [...ids],
      8,
      async (id) => {
        try {
          const figs = await client.productionFigures.get(id, { signal });
          this.serverProduction.set(id, new Map(figs.map((f) => [f.year, f.quantity])));
        } catch (e) {
          if (
            e instanceof ApiError &&
            e.classification !== 'auth' &&
            e.classification !== 'daily_limit' &&
            e.status !== 500
          )
            this.serverProduction.set(id, { unreadable: e.msg ? `${e.err_code}: ${e.msg}` : e.err_code });
          else fatal ??= e;
        }
      },
      () => fatal !== undefined || signal?.aborted === true,
    );
    if (fatal !== undefined) throw fatal;
    signal?.throwIfAborted();
  }

  /** One entry per product instance of the production sheet: the years whose figure changes are PUT. */
  productionFigures(): void {
    const { byOwner, ownerless } = groupByOwner(this.wb.rows('production'), 'product_instance_external_id');
    for (const r of ownerless) this.blockedRow('production', r);
    const thisYear = new Date().getUTCFullYear();
    for (const [code, rows] of byOwner) {
      const first = rows[0];
      const problems: PlanProblem[] = [];
      const host = { problems };
      const entry: PlanEntry = {
        key: `production:${code}`,
        kind: 'production',
        level: LEVEL.production,
        sheet: 'production',
        row: first.row,
        rows: rows.map((r) => ({ sheet: r.sheet, row: r.row })),
        externalId: code,
        label: `production figures of ${code}`,
        action: 'blocked',
        id: null,
      };
      for (const r of rows) if (!r.typed) problems.push(...r.problems);
      const instance = this.refValue(host, first, 'product_instance_external_id', 'product_instance', code);
      const instanceEntry = this.byKey.get(this.defining.get(`product_instance:${code}`) ?? '');
      const instPlant = instanceEntry
        ? this.entryPlant.get(instanceEntry.key)
        : this.svc.product_instance.get(code)?.plant_id?.toLowerCase();
      if (instPlant) entry.plantIds = [instPlant];
      // The production period: the workbook's row of the instance, else the service's.
      const svcInst = this.svc.product_instance.get(code) as
        { produced_from?: unknown; produced_to?: unknown } | undefined;
      const wbInst = instanceEntry?.body as { produced_from?: unknown; produced_to?: unknown } | undefined;
      const from = typeof wbInst?.produced_from === 'number' ? wbInst.produced_from : svcInst?.produced_from;
      const to = wbInst && 'produced_to' in wbInst ? wbInst.produced_to : svcInst?.produced_to;
      const wanted = new Map<number, { quantity: number; row: WbRow<unknown> }>();
      for (const r of rows as WbRow<{ year: number; quantity: number }>[]) {
        const t = r.typed;
        if (!t) continue;
        const outside = (typeof from === 'number' && t.year < from) || (typeof to === 'number' && t.year > to);
        if (outside) {
          problems.push({
            kind: 'rule',
            sheet: r.sheetName,
            cell: this.wb.cell(r.sheet, 'year', r.row),
            row: r.row,
            field: 'year',
            message: `year ${t.year} lies outside the production period of ${code} (${String(from)}–${typeof to === 'number' ? to : 'open'})`,
            code: 'row_rule',
            params: { detail: `year ${t.year} outside ${String(from)}–${typeof to === 'number' ? to : 'open'}` },
          });
          continue;
        }
        wanted.set(t.year, { quantity: t.quantity, row: r });
      }
      if (problems.length > 0 || instance === undefined) {
        entry.problems = problems;
        this.push(entry);
        continue;
      }
      const instanceId = isPending(instance) ? null : instance;
      const server = instanceId ? this.serverProduction.get(instanceId) : new Map<number, number>();
      const current = server instanceof Map ? server : null;
      const notes: string[] = [];
      if (server && !(server instanceof Map))
        notes.push(
          `the production figures on the service could not be read (${server.unreadable}): every year is written`,
        );
      const changes: FieldChange[] = [];
      const figures: { year: number; quantity: number }[] = [];
      for (const [year, w] of [...wanted].sort((a, b) => a[0] - b[0])) {
        const before = current?.get(year);
        if (current && before === w.quantity) continue;
        changes.push({ field: `production_figures[${year}]`, before: before ?? null, after: w.quantity });
        figures.push({ year, quantity: w.quantity });
      }
      for (const year of wanted.keys())
        if (year > thisYear)
          notes.push(
            `${year} is a future year: its figure is written now, and its LCA stays blocked until ${year} arrives (spec rule 3)`,
          );
      entry.id = instanceId;
      if (figures.length === 0) {
        entry.action = 'unchanged';
        if (notes.length) entry.notes = notes;
        this.push(entry);
        continue;
      }
      if (this.createOnly && current !== null && figures.some((f) => current.has(f.year))) {
        entry.action = 'skipped_update';
        notes.push('create-only: production figures that differ from the service are not overwritten');
        entry.notes = notes;
        this.push(entry);
        continue;
      }
      const refs: RefSlot[] = [];
      if (isPending(instance)) refs.push({ path: ['$id'], key: instance.$pending, code: instance.code });
      entry.action = current !== null && figures.every((f) => !current.has(f.year)) ? 'create' : 'update';
      entry.changes = changes;
      entry.body = { production_figures: figures };
      if (refs.length) {
        entry.refs = refs;
        entry.dependsOn = [...new Set(refs.map((r) => r.key))];
        notes.push(...this.afterNotes(refs.map((r) => r.key)));
      }
      if (notes.length) entry.notes = notes;
      this.preflight(entry, 'productionFigures.put');
      this.push(entry);
    }
  }

  private plantOfComponent(kind: IdentifiedKind, code: string): string | null {
    const key = this.defining.get(`${kind}:${code}`);
    if (key) return this.entryPlant.get(key) ?? null;
    const e = this.svc[kind].get(code) as { plant_id?: string } | undefined;
    return e?.plant_id ? e.plant_id.toLowerCase() : null;
  }

  // ------------------------------------------------------------ deletes, mirror, ignored rows

  /** Rows with action `ignore` (every sheet): skipped, listed in the plan. */
  get ignored(): RowRef[] {
    const out: RowRef[] = [];
    for (const sheet of this.wb.sheets.keys())
      for (const r of this.wb.actionRows(sheet, 'ignore')) out.push({ sheet: r.sheet, row: r.row });
    return out;
  }

  /** A delete entry of one service entity (or of a code the service does not have: already absent). */
  private deleteEntry(
    kind: IdentifiedKind,
    key: string,
    sheet: DataSheetName,
    row: number,
    code: string | null,
    existing: Obj | undefined,
    problems: PlanProblem[],
    why: string,
  ): PlanEntry {
    const name = typeof existing?.name === 'string' ? existing.name : null;
    const entry: PlanEntry = {
      key,
      kind,
      level: DELETE_LEVEL[kind],
      sheet,
      row,
      rows: row > 0 ? [{ sheet, row }] : [],
      externalId: code,
      label: `${NOUN[kind]} ${code ?? `(row ${row})`}${name ? ` "${name}"` : ''}`,
      action: problems.length ? 'blocked' : 'delete',
      id: existing ? String(existing.id).toLowerCase() : null,
      notes: [why],
    };
    if (typeof existing?.plant_id === 'string') entry.plantIds = [existing.plant_id.toLowerCase()];
    if (problems.length) {
      entry.problems = problems;
      return entry;
    }
    if (!existing) entry.notes = [why, 'not on the service: already absent, nothing is sent'];
    else {
      entry.before = { ...existing };
      this.preflight(entry, `${RESOURCE[kind]}.delete` as Operation);
    }
    return entry;
  }

  /** Rows with action `delete` on the entity sheets. */
  deleteRows(): void {
    for (const [sheet, kind] of Object.entries(ENTITY_SHEETS) as [DataSheetName, IdentifiedKind][]) {
      for (const r of this.wb.actionRows(sheet, 'delete')) {
        const code = rawCode(r, 'external_id');
        const existing = code ? (this.svc[kind].get(code) as Obj | undefined) : undefined;
        const problems = [...r.problems];
        if (code && this.svc.unreadable[kind] && !existing)
          problems.push({
            kind: 'unreadable',
            sheet: r.sheetName,
            cell: this.wb.cell(sheet, 'external_id', r.row),
            row: r.row,
            field: 'external_id',
            message: `external_id: ${this.svc.unreadable[kind]}`,
            ...this.unknownCode(kind, 'reference_unknown', { value: code, entityKind: kind }),
          });
        const filled = Object.keys(r.values).filter(
          (f) => f !== 'external_id' && f !== 'action' && r.values[f] !== undefined && r.values[f] !== null,
        );
        const why = `action delete${filled.length ? ` (only external_id is used; not used: ${filled.join(', ')})` : ''}`;
        this.push(this.deleteEntry(kind, `${sheet}!${r.row}`, sheet, r.row, code, existing, problems, why));
      }
    }
  }

  /**
   * Mirrored sheets: every entity of the sheet's type on the service that carries an external_id and is not in
   * the sheet (any row, whatever its action) is deleted; entities without one are listed, never touched. Over
   * the cap, every delete of that sheet is blocked (nothing is deleted).
   */
  async mirror(
    client: ApiClient,
    sheets: readonly DataSheetName[],
    maxDeletes: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ sheets: NonNullable<Plan['mirror']>; notManaged: NonNullable<Plan['notManaged']> }> {
    const out: NonNullable<Plan['mirror']> = [];
    const notManaged: NonNullable<Plan['notManaged']> = [];
    for (const sheet of sheets) {
      const kind = ENTITY_SHEETS[sheet];
      if (!kind) throw new Error(`${sheet} cannot be mirrored: only ${Object.keys(ENTITY_SHEETS).join(', ')} can`);
      const inSheet = new Set<string>();
      for (const r of [...this.wb.rows(sheet), ...this.wb.actionRows(sheet, 'delete'), ...this.wb.actionRows(sheet, 'ignore')]) {
        const c = rawCode(r, 'external_id');
        if (c) inSheet.add(c);
      }
      const resource = (client as unknown as Record<string, { walk(q: object, o: object): AsyncIterable<Obj> }>)[
        RESOURCE[kind]
      ];
      const gone: Obj[] = [];
      let managed = 0;
      for await (const e of resource.walk({}, { signal })) {
        const code = typeof e.external_id === 'string' && e.external_id !== '' ? e.external_id : null;
        if (!code) {
          notManaged.push({ kind, id: String(e.id).toLowerCase(), name: typeof e.name === 'string' ? e.name : null });
          continue;
        }
        managed++;
        if (!inSheet.has(code)) gone.push(e);
      }
      // In code order (as people read a list), whatever order the service lists them in.
      gone.sort((a, b) => String(a.external_id).localeCompare(String(b.external_id), 'en', { numeric: true }));
      const cap = maxDeletes ?? defaultMaxDeletes(managed);
      const overCap = gone.length > cap;
      const sheetName = this.wb.sheetName(sheet);
      for (const e of gone) {
        const code = String(e.external_id);
        const problems: PlanProblem[] = overCap
          ? [
              {
                kind: 'rule',
                sheet: sheetName,
                cell: null,
                row: null,
                field: null,
                message: `the mirror of ${sheetName} would delete ${gone.length} ${NOUNS[kind]}, more than the cap of ${cap} (--max-deletes): nothing is deleted`,
                code: 'mirror_cap',
                params: { sheet: sheetName, count: gone.length, cap },
              },
            ]
          : [];
        this.push(
          this.deleteEntry(kind, `mirror:${sheet}:${code}`, sheet, 0, code, e, problems, `mirror: not in ${sheetName}`),
        );
      }
      out.push({ sheet, kind, managed, deletes: gone.length, cap, overCap });
    }
    return { sheets: out, notManaged };
  }

  // ------------------------------------------------------------ decide an entity's action

  private blockedRow(kind: EntityKind, r: WbRow<unknown>): void {
    const problems = r.problems.length
      ? r.problems
      : [
          {
            kind: 'validation' as const,
            sheet: r.sheetName,
            cell: null,
            row: r.row,
            field: null,
            message: 'the row has no code to attach it to',
            code: 'no_owner_code' as const,
          },
        ];
    this.push({
      key: `${r.sheet}!${r.row}`,
      kind,
      level: LEVEL[kind],
      sheet: r.sheet,
      row: r.row,
      rows: [{ sheet: r.sheet, row: r.row }],
      externalId: null,
      label: `${r.sheetName} row ${r.row}`,
      action: 'blocked',
      id: null,
      problems,
    });
  }

  private finish(d: Draft, o: { onlyExisting?: boolean } = {}): void {
    const existing = d.externalId ? (this.svc[d.kind].get(d.externalId) as Obj | undefined) : undefined;
    const entry: PlanEntry = {
      key: d.key,
      kind: d.kind,
      level: LEVEL[d.kind],
      sheet: d.sheet,
      row: d.row,
      rows: d.rows,
      externalId: d.externalId,
      label: `${NOUN[d.kind]} ${d.externalId ?? `(row ${d.row})`}`,
      action: 'blocked',
      id: existing ? String(existing.id).toLowerCase() : null,
    };
    const plantId =
      typeof d.desired.plant_id === 'string'
        ? d.desired.plant_id
        : typeof existing?.plant_id === 'string'
          ? existing.plant_id.toLowerCase()
          : null;
    this.entryPlant.set(d.key, plantId);
    if (d.kind === 'supplier_product') {
      const sp = d.desired.supplier_plant_id;
      this.productFacts.set(d.key, {
        plant_id: plantId,
        material_key: materialKey(d.desired.material_type ?? existing?.material_type),
        supplier_plant_id: isPending(sp)
          ? `pending:${sp.$pending}`
          : sp === undefined
            ? ((existing?.supplier_plant_id as string | null | undefined) ?? null)
            : (sp as string | null),
      });
    }
    const plants = new Set<string>();
    if (plantId) plants.add(plantId);
    if (typeof existing?.plant_id === 'string') plants.add(existing.plant_id.toLowerCase());
    for (const p of d.plants) plants.add(p);
    if (plants.size) entry.plantIds = [...plants].sort();

    if (d.problems.length > 0) {
      entry.problems = d.problems;
      return this.push(entry);
    }
    if (d.snapshot && (!existing || snapshotOf(d.kind, existing) !== d.snapshot)) {
      entry.action = 'conflict';
      const r = { sheetName: this.wb.sheetName(d.sheet), row: d.row };
      entry.problems = [
        conflictProblem(
          r,
          this.wb.cell(d.sheet, 'external_id', d.row),
          existing ? 'changed on the service since the export' : 'was deleted on the service since the export',
          existing ? 'changed' : 'deleted',
        ),
      ];
      return this.push(entry);
    }
    const notes: string[] = [];
    let body: Obj;
    let op: 'create' | 'update';
    if (!existing) {
      if (o.onlyExisting || d.rowAction === 'update') {
        entry.problems = [
          {
            kind: 'unresolved',
            sheet: this.wb.sheetName(d.sheet),
            cell: null,
            row: d.row,
            field: null,
            message: `${entry.label} is not on the service`,
            code: 'not_on_service',
            params: d.externalId
              ? { entityKind: d.kind, value: d.externalId }
              : { entityKind: d.kind, value: `(row ${d.row})` },
          },
        ];
        return this.push(entry);
      }
      body = this.createBody(d);
      if (d.kind === 'silo' && !(Array.isArray(body.items) && body.items.length > 0)) {
        entry.problems = [
          {
            kind: 'rule',
            sheet: this.wb.sheetName(d.sheet),
            cell: this.wb.cell(d.sheet, 'external_id', d.row),
            row: d.row,
            field: 'external_id',
            message: `silo ${d.externalId} needs at least one item in the silo-items sheet`,
            code: 'silo_without_items',
            params: { value: String(d.externalId) },
          },
        ];
        return this.push(entry);
      }
      op = 'create';
      entry.action = 'create';
    } else {
      const { changes, patch } = this.diff(d, existing);
      if (changes.length === 0) {
        entry.action = 'unchanged';
        return this.push(entry);
      }
      entry.changes = changes;
      if (this.createOnly || d.rowAction === 'create') {
        entry.action = 'skipped_update';
        entry.notes = [
          this.createOnly
            ? 'create-only: the differences are not applied'
            : 'action create: the entity exists, the differences are not applied',
        ];
        return this.push(entry);
      }
      body = patch;
      op = 'update';
      entry.action = 'update';
      entry.before = { ...existing };
    }
    const { body: clean, refs } = extractRefs(body);
    entry.body = clean;
    if (refs.length) {
      entry.refs = refs;
      entry.dependsOn = [...new Set(refs.map((r) => r.key))];
      notes.push(...this.afterNotes(entry.dependsOn));
    }
    if (notes.length) entry.notes = notes;
    this.preflight(entry, `${RESOURCE[d.kind]}.${op}` as Operation);
    this.push(entry);
  }

  private afterNotes(keys: readonly string[]): string[] {
    return [...new Set(keys)].map((k) => {
      const e = this.byKey.get(k);
      return `after create of ${e?.label ?? k} (${rowName(e)})`;
    });
  }

  private createBody(d: Draft): Obj {
    const body: Obj = {};
    for (const [k, v] of Object.entries(d.desired)) if (v !== undefined && v !== null) body[k] = v;
    if (d.route) {
      const route = mergeRoute(null, d.route);
      if (route) body.transport_route = route;
    }
    if (d.hazards && d.hazards.length) body.hazardous_substances = d.hazards;
    if (d.items)
      body.items = d.items.map((it) => ({
        supplier_product_id: it.supplier_product_id,
        annual_items: it.annual_items,
      }));
    return body;
  }

  private diff(d: Draft, existing: Obj): { changes: FieldChange[]; patch: Obj } {
    const changes: FieldChange[] = [];
    const patch: Obj = {};
    for (const [k, v] of Object.entries(d.desired)) {
      if (v === undefined || k === 'external_id') continue;
      const cur = existing[k];
      const same = k === 'material_type' ? materialKey(v) === materialKey(cur) : sameScalar(v, cur);
      if (same) continue;
      changes.push({ field: k, before: display(cur ?? null, this.codeOfId), after: display(v, this.codeOfId) });
      patch[k] = v;
    }
    if (d.route && Object.keys(d.route).length) {
      const next = mergeRoute(existing.transport_route, d.route);
      const rc = routeChanges(existing.transport_route, next);
      if (rc.length) {
        changes.push(...rc);
        patch.transport_route = next;
      }
    }
    if (d.hazards) {
      const hc = hazardChanges(existing.hazardous_substances, d.hazards);
      if (hc.length) {
        changes.push(...hc);
        patch.hazardous_substances = d.hazards;
      }
    }
    if (d.items) {
      const ic = siloItemChanges(existing.items, d.items, this.codeOfId);
      if (ic.length) {
        changes.push(...ic);
        patch.items = d.items.map((it) => ({
          supplier_product_id: it.supplier_product_id,
          annual_items: it.annual_items,
        }));
      }
    }
    return { changes, patch };
  }

  private preflight(entry: PlanEntry, operation: Operation): void {
    const op: PlannedOperation = { operation, plant_ids: entry.plantIds ?? [] };
    const report = preflightReport(this.me, this.maskedKey || maskApiKey(null), [op]);
    if (report.ok) return;
    const verb = operation.endsWith('.create')
      ? 'create'
      : operation.endsWith('.delete')
        ? 'delete'
        : operation === 'bom.put'
          ? 'replace'
          : 'update';
    const problems: PlanProblem[] = report.problems.map((p) => ({
      kind: 'preflight',
      sheet: this.wb.sheetName(entry.sheet),
      cell: null,
      row: entry.row,
      field: null,
      message:
        p.kind === 'missing_scope'
          ? `the API key lacks the scope ${p.scope}, needed to ${verb} ${NOUNS[entry.kind]}`
          : p.kind === 'plant_unreachable'
            ? `the API key cannot reach plant ${this.plantLabel(p.plant_id)}`
            : p.message,
      err_code:
        p.kind === 'missing_scope'
          ? 'err_permission_denied'
          : p.kind === 'plant_unreachable'
            ? 'err_plant_no_access'
            : 'err_not_authenticated',
      ...preflightCode(p, verb, entry.kind, this.plantLabel(p.plant_id)),
    }));
    entry.action = 'blocked';
    entry.problems = problems;
    delete entry.body;
    delete entry.refs;
    delete entry.dependsOn;
    delete entry.before;
    for (const p of problems) {
      if (!this.preflightProblems.some((q) => q.message === p.message))
        this.preflightProblems.push({ ...p, sheet: null, row: null });
    }
  }

  private plantLabel(id: string | undefined): string {
    if (!id) return '?';
    for (const [code, p] of this.svc.plant) if (p.id === id) return `${code} (${id})`;
    return id;
  }

  private push(e: PlanEntry): void {
    this.sink.add(e);
    this.byKey.set(e.key, entryRef(e));
  }
}

function rowName(e: EntryRef | undefined): string {
  return e ? `${e.sheet} row ${e.row}` : 'another row';
}

function conflictProblem(
  r: { sheetName: string; row: number },
  cell: string | null,
  what: string,
  variant: 'changed' | 'deleted' | 'unreadable',
): PlanProblem {
  return {
    kind: 'conflict',
    sheet: r.sheetName,
    cell,
    row: r.row,
    field: '_snapshot',
    message: `this row was exported from the service and the entity ${what}: export it again (or remove the _snapshot cell to compare with the current data)`,
    code: 'snapshot_conflict',
    params: { variant },
  };
}

/** Params of a duplicate external_id: where the first row is (variant `elsewhere` when unknown). */
function firstRowParams(code: string, first: EntryRef | undefined): IssueParams {
  return first ? { value: code, firstSheet: first.sheet, firstRow: first.row } : { value: code, variant: 'elsewhere' };
}

/** Code and params of a preflight problem (what its message is built from). */
function preflightCode(
  p: { kind: string; scope?: string; message: string },
  verb: string,
  entityKind: EntityKind,
  plant: string,
): Pick<PlanProblem, 'code' | 'params'> {
  if (p.kind === 'missing_scope')
    return { code: 'missing_scope', params: { scope: String(p.scope), verb, entityKind } };
  if (p.kind === 'plant_unreachable') return { code: 'plant_unreachable', params: { plant } };
  return { code: 'key_unusable', params: { detail: p.message } };
}

/** Which silo rule of checkSiloItems a message is (the variant of `silo_rule`). */
function siloRuleVariant(msg: string): string {
  if (msg.includes('at least 1 item')) return 'no_items';
  if (msg.includes('more than once')) return 'twice';
  if (msg.includes('not found')) return 'not_found';
  if (msg.includes("silo's plant")) return 'other_plant';
  if (msg.includes('no supplier plant')) return 'no_supplier_plant';
  if (msg.includes('same material type')) return 'material';
  return 'other';
}

/** Actions that write. */
export function isWriteAction(a: PlanAction): boolean {
  return a === 'create' || a === 'update' || a === 'replace';
}

/** ` (did you mean MAT-SAND?)` for an unknown code, when a known one is a near miss (issue 12 §1). */
function didYouMean(code: string, known: Iterable<string>): string {
  const hits = closestCodes(code, known);
  return hits.length ? ` (did you mean ${hits.join(' or ')}?)` : '';
}

function hintParam(code: string, known: Iterable<string>): { hint?: string } {
  const hits = closestCodes(code, known);
  return hits.length ? { hint: hits.join(', ') } : {};
}
