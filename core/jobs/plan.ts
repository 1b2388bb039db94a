/**
 * planImport: the dry run. Resolves every code of the workbook against the live service in bulk, reads the
 * BOMs it will replace, and gives each row an action (create / update with field-level before → after /
 * unchanged / blocked / conflict / skipped_update; per BOM: replace with the component diff, or unchanged).
 * References to rows created in the same import become `dependsOn` + "after create of X". Preflight (/v2/me):
 * rows whose operation needs a scope the key lacks or a plant it cannot reach are blocked with the reason.
 * The plan is plain data: saved with the job, shown by the UI, printed by the CLI.
 *
 * This module is the entry: `plan/` holds one planner per entity kind, the state they share (`context.ts`:
 * references, lookups, and `emit`, the one place an entry enters the plan) and the decision step (`decide.ts`).
 * The entries go to a `PlanSink` as they are decided: a job folder's plan-entries.jsonl (what grows with the
 * rows stays on disk); the job runs from that folder.
 */
import { PART_ROW_OFFSET, plannedParts } from '../workbook/sheet-parts.js';
import type { ApiClient } from '../api/index.js';
import { preflightReport } from '../api/preflight.js';
import type { DataSheetName, Issue, ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import { resolveCodes, type CodeMappings, type ServiceIndex } from './resolve.js';
import { causeExplainer, unknownCodeIssues } from './code-check.js';
import type { Plan, PlanEntry, PlanHeader, PlanProblem } from './types.js';
import { indexWorkbook, type WorkbookRows } from './workbook-rows.js';
import { LEVEL } from './entities.js';
import { HeldSink, JsonlPlanSink, SummaryCounter, type PlanSink } from './plan-sink.js';
import type { ServiceWalks } from './service-walks.js';
import { planBoms, readComponentCodes, readServerBoms, type ServerBoms } from './plan/boms.js';
import { collectCodes, workbookMappings } from './plan/codes.js';
import { planCompanies } from './plan/companies.js';
import { PlanState, type PlanProgress } from './plan/context.js';
import { hasDeleteRows, ignoredRows, planDeleteRows, planMirror } from './plan/deletes.js';
import { checkDeletesInUse, PlannedUses } from './plan/in-use.js';
import { withInstanceChildren } from './plan/instance-before.js';
import { planPrechainProducts } from './plan/prechain-products.js';
import { planProductInstances } from './plan/product-instances.js';
import { planProduction, readProduction, type ServerProduction } from './plan/production.js';
import { DecisionsAhead } from './plan/ahead.js';
import { planSilos } from './plan/silos.js';
import { planSupplierPlants } from './plan/supplier-plants.js';
import { planSupplierProducts, supplierProductsSheet, type SupplierProductsSheet } from './plan/supplier-products.js';
import type { Me } from '../spec/schemas.js';
import { Slicer } from '../throttle.js';

export { DELETE_LEVEL, ENTITY_SHEETS, LEVEL, RESOURCE } from './entities.js';
export { defaultMaxDeletes } from './plan/deletes.js';
export type { PlanProgress } from './plan/context.js';

export interface PlanContext {
  client: ApiClient;
  /** Expected manufacturer (e.g. of the saved profile): planning refuses a key of another one. */
  manufacturerId?: string;
  mappings?: CodeMappings;
  options?: {
    createOnly?: boolean;
    /** Sheets to mirror: their type's entities with an external_id that are not in the sheet are deleted. */
    mirror?: DataSheetName[];
    /** Most deletes one mirrored sheet may make (default: 10 % of the type's entities with an external_id, at least 5). */
    maxDeletes?: number;
  };
  /** The validateWorkbook(parsed) report; without it the planner uses the reader's issues and row schemas. */
  validation?: ValidationReport;
  /** /v2/me and the collection walks started before the rows were read (startServiceWalks): used, not repeated. */
  walks?: ServiceWalks;
  /**
   * The workbook's codes resolved already, on this client with these mappings (the app's codes pass, which picked
   * them out of `walks`): used instead of resolving them again.
   */
  resolved?: ServiceIndex;
  /** Told the workbook's codes once resolved (for another plan of the same workbook on this client: `resolved`). */
  onResolved?: (svc: ServiceIndex) => void;
  signal?: AbortSignal;
  onProgress?: (p: PlanProgress) => void;
}

/** Counts of a plan's entries per sheet and action, and the worksheet rows they cover (the plan's summary). */
export function planSummary(entries: readonly PlanEntry[]): Plan['summary'] {
  const c = new SummaryCounter();
  for (const e of entries) c.add(e);
  return c.summary();
}

/** Deletes run after every other entry (the sinks hold them back and write them last). */
const isDeleteEntry = (e: PlanEntry) => e.level > LEVEL.bom;

/**
 * The plan with its entries written to `path` as JSON lines as they are decided (in plan order), not held in
 * memory (a job folder's plan-entries.jsonl: job-store.ts newJobDir): what grows with the rows stays on disk.
 * The header is returned; writePlanHeader puts it beside the entries.
 */
export async function planImport(parsed: ParsedWorkbook, ctx: PlanContext, path: string): Promise<PlanHeader> {
  const sink = new JsonlPlanSink(path, isDeleteEntry);
  try {
    return await planInto(parsed, ctx, sink, `${path}.ahead`);
  } catch (e) {
    sink.abort();
    throw e;
  } finally {
    ctx.walks?.cancel();
  }
}

/** `aheadPath`: where the rows decided ahead wait for their turn (plan/ahead.ts; a file removed once opened). */
async function planInto(
  parsed: ParsedWorkbook,
  ctx: PlanContext,
  sink: PlanSink,
  aheadPath: string,
): Promise<PlanHeader> {
  if (!parsed.readable) {
    const first = parsed.issues.find((i) => i.severity === 'error');
    throw new Error(`The workbook could not be read${first ? `: ${first.message}` : ''}`);
  }
  const { client, signal } = ctx;
  const progress = ctx.onProgress ?? (() => {});
  const startRequests = ctx.walks?.startRequests ?? client.stats().requests;
  const wb = indexWorkbook(parsed, ctx.validation);
  progress({ phase: 'preflight', done: 0, total: 1 });
  progress({ phase: 'resolving', done: 0, total: 1 });
  // /v2/me and the resolution of the workbook's codes are reads independent of each other: one round trip for
  // both, not one after the other.
  // /v2/me's answer first: a refused key or an unreachable service is told by it, whatever the other reads met.
  // With walks started before the rows were read, the codes are picked out of them.
  const reading = ctx.walks?.me ?? client.me({ signal });
  reading.catch(() => {}); // awaited below, after the rows are indexed
  // The rows are indexed (wb.prepare) while the reads that resolve their codes are out: those need the codes
  // only (collectCodes reads them from the rows' cells), not the indexed rows.
  let indexed!: () => void;
  let notIndexed!: (e: unknown) => void;
  const prepared = new Promise<void>((resolve, reject) => {
    indexed = resolve;
    notIndexed = reject;
  });
  prepared.catch(() => {}); // awaited below
  // Supplier products are resolved last: their walk is the longest of a large workbook. Once every other kind
  // is resolved (and the rows indexed) the planning starts (the sheets before supplier products, the instances'
  // BOM and production reads) and each supplier-product row whose entity the walk has found is decided meanwhile
  // (plan/ahead.ts).
  let started: Promise<Started> | undefined;
  const start = (svc: ServiceIndex, ahead: boolean) =>
    (started ??= Promise.all([reading, prepared]).then(([me]) =>
      startPlanning(wb, svc, me, ctx, progress, ahead ? aheadPath : undefined),
    ));
  const foundEarly: string[] = [];
  let ahead: DecisionsAhead<unknown> | undefined;
  let over = false;
  try {
    const resolving = ctx.resolved
      ? Promise.resolve(ctx.resolved)
      : resolveCodes(client, collectCodes(wb), workbookMappings(wb), ctx.mappings, signal, ctx.walks?.walks, {
          kind: 'supplier_product',
          ready: (idx) =>
            void start(idx, !!ctx.walks?.walks.supplier_product).then(
              (s) => {
                if (over) return s.ahead?.close();
                ahead = s.ahead;
                for (const code of foundEarly.splice(0)) ahead?.found(code);
              },
              () => {},
            ), // told by the awaits below
          found: (code) => (ahead ? ahead.found(code) : foundEarly.push(code)),
        });
    resolving.catch(() => {}); // awaited below; when /v2/me failed, its error is the one told
    // One turn of the event loop: the codes' reads are sent before the rows are indexed, not after.
    await new Promise((r) => setImmediate(r));
    // The rows indexed with turns of the event loop between groups: the walks' pages are handled meanwhile.
    wb.prepare(signal).then(indexed, notIndexed);
    await prepared;
    const me = await reading;
    const svc = await resolving;
    ctx.walks?.cancel(); // walks of collections no code asked for
    ctx.onResolved?.(svc);
    if (ctx.manufacturerId && ctx.manufacturerId.toLowerCase() !== me.manufacturer_id.toLowerCase()) {
      throw new Error(
        `The API key belongs to another manufacturer (${me.manufacturer_id}) than the one expected (${ctx.manufacturerId}).`,
      );
    }
    const sheetNames: Plan['sheetNames'] = {};
    const sheetColumns: Plan['sheetColumns'] = {};
    const sheetParts: NonNullable<Plan['sheetParts']> = {};
    for (const [name, s] of wb.sheets) {
      sheetNames[name] = s.sheetName;
      sheetColumns[name] = { ...s.columns };
      const parts = plannedParts(s);
      if (parts) sheetParts[name] = parts;
    }
    signal?.throwIfAborted();

    const begun = await start(svc, false);
    const { planner } = begun;
    begun.ahead?.stop();
    if (svc.unreadable.supplier_product) begun.ahead?.drop();
    // The codes pass: every code cell, rows with other errors included, against the service's answers and the
    // workbook; a problem an unknown code causes says so.
    const unknownCodes = unknownCodeIssues(parsed, svc, ctx.validation);
    const explained = unknownCodes.length ? explainedBy(parsed, unknownCodes, sink) : sink;
    const hasParts = Object.keys(sheetParts).length > 0;
    begun.held.release(hasParts ? sourceRows(explained) : explained);
    const serverBoms = await begun.boms;
    await readComponentCodes(serverBoms, svc, client, signal);
    const serverProduction = await begun.production;
    progress({ phase: 'planning', done: 0, total: 1 });
    // The rows decided in slices, the event loop turning between them (and a cancel heard there).
    const slicer = new Slicer({ onTurn: () => signal?.throwIfAborted() });
    await slicer.run(planSupplierProducts(planner, begun.supplierProducts, begun.ahead));
    await slicer.run(planSilos(planner));
    planProductInstances(planner);
    planPrechainProducts(planner);
    planBoms(planner, serverBoms);
    planProduction(planner, serverProduction);
    const deletes = planDeleteRows(planner);
    const mirror = await planMirror(planner, client, ctx.options?.mirror ?? [], ctx.options?.maxDeletes, signal);
    deletes.push(...mirror.entries);
    await checkDeletesInUse(planner, client, deletes, serverBoms, signal);
    // A product instance's delete keeps its BOM and production figures (what an undo needs), or is blocked.
    for (const e of deletes) planner.emit(await withInstanceChildren(e, planner.wb.sheetName(e.sheet), client, signal));
    const summary = sink.finish();
    progress({ phase: 'planning', done: 1, total: 1 });
    const ignored = ignoredRows(planner);

    return {
      format: 'supply-loader/plan@1',
      createdAt: new Date().toISOString(),
      file: parsed.file,
      sheetNames,
      sheetColumns,
      ...(Object.keys(sheetParts).length && { sheetParts }),
      baseUrl: client.baseUrl,
      manufacturerId: me.manufacturer_id,
      maskedKey: client.maskedKey,
      options: {
        createOnly: ctx.options?.createOnly ?? false,
        ...(ctx.options?.mirror?.length ? { mirror: [...ctx.options.mirror] } : {}),
        ...(ctx.options?.maxDeletes !== undefined ? { maxDeletes: ctx.options.maxDeletes } : {}),
      },
      ...(mirror.sheets.length ? { mirror: mirror.sheets, notManaged: mirror.notManaged } : {}),
      ...(ignored.length ? { ignoredRows: ignored } : {}),
      ...(unknownCodes.length ? { unknownCodes } : {}),
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
  } finally {
    over = true;
    ahead?.close(); // nothing more to decide ahead, also when planning failed
  }
}

/** Planning begun: the sheets before supplier products planned, the instances' reads under way. */
interface Started {
  planner: PlanState;
  /** Where the planner's entries go; held until the plan's sink is known (it needs the whole index). */
  held: HeldSink;
  boms: Promise<ServerBoms>;
  production: Promise<ServerProduction>;
  supplierProducts: SupplierProductsSheet;
  /** Rows decided while the supplier-product walk runs (when the plan began before it ended). */
  ahead?: DecisionsAhead<unknown>;
}

/**
 * Begin planning with every kind but supplier products resolved (`svc` complete but for them): the companies
 * and supplier plants are planned (nothing of supplier products is asked of them), the instances' BOMs and
 * production figures are read (they need only the instances' ids).
 */
function startPlanning(
  wb: WorkbookRows,
  svc: ServiceIndex,
  me: Me,
  ctx: PlanContext,
  progress: (p: PlanProgress) => void,
  /** where rows decided ahead wait (plan/ahead.ts); none: every row is decided at its turn */
  aheadPath: string | undefined,
): Started {
  const { client, signal } = ctx;
  const held = new HeldSink();
  const planner = new PlanState(wb, svc, me, client.maskedKey, ctx.options?.createOnly ?? false, held);
  // A plan that deletes notes what its writes leave referenced (a delete of an entity still in use is blocked).
  if (ctx.options?.mirror?.length || hasDeleteRows(planner)) planner.uses = new PlannedUses();
  // The instances' BOMs and production figures on the service: independent reads, side by side.
  const boms = readServerBoms(wb, svc, client, signal, progress);
  const production = readProduction(wb, svc, client, signal);
  boms.catch(() => {}); // awaited by the plan
  production.catch(() => {});
  // In dependency order: a row's references are decided before it.
  planCompanies(planner);
  planSupplierPlants(planner);
  const supplierProducts = supplierProductsSheet(planner);
  return {
    planner,
    held,
    boms,
    production,
    supplierProducts,
    ...(aheadPath !== undefined && { ahead: new DecisionsAhead(planner, supplierProducts, aheadPath) }),
  };
}

/** The sink of a plan with unknown codes: a problem one of them causes says so (code-check.ts causeExplainer). */
function explainedBy(parsed: ParsedWorkbook, unknownCodes: readonly Issue[], sink: PlanSink): PlanSink {
  const explain = causeExplainer(parsed, new Set(unknownCodes.map((i) => `${i.sheet}!${i.cell}`)));
  return {
    add: (e) => {
      if (e.problems) e.problems = e.problems.map((p) => explain(p));
      sink.add(e);
    },
    addLine: (line, facts) => sink.addLine(line, facts),
    finish: () => sink.finish(),
    get count() {
      return sink.count;
    },
  };
}

/** A problem of a row of a second source says the row of that source (its sheet and cell already do). */
function toSourceRow(p: PlanProblem): void {
  if (p.row !== null && p.row >= PART_ROW_OFFSET) p.row %= PART_ROW_OFFSET;
}

/** The sink of a plan whose sheets have several sources: each entry's problems at their source's rows. */
function sourceRows(sink: PlanSink): PlanSink {
  return {
    add: (e) => {
      for (const p of e.problems ?? []) toSourceRow(p);
      sink.add(e);
    },
    addLine: (line, facts) => sink.addLine(line, facts),
    finish: () => sink.finish(),
    get count() {
      return sink.count;
    },
  };
}
