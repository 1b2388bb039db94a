/**
 * What the planners of every kind share: the workbook, the service index and key, the entries made so far (the
 * one place an entry enters the plan: `emit`, which hands it to the plan's sink and keeps only its compact
 * `EntryRef`), which row defines which code, and the references between rows — a code becomes a service id, a
 * pending id (created in this import), or a problem at its cell.
 */
import type { Me } from '../../api/index.js';
import type { PlanPhase } from '../../names.js';
import type { IssueParams } from '../../workbook/types.js';
import { closestCodes } from '../../workbook/similar.js';
import { pending, type Pending } from '../diff.js';
import { LEVEL, nounOf } from '../entities.js';
import { entryRef, refLabel, type EntryFacts, type EntryRef, type PlanSink } from '../plan-sink.js';
import type { ServiceIndex } from '../resolve.js';
import type { EntityKind, IdentifiedKind, PlanEntry, PlanProblem, PlanProblemCode } from '../types.js';
import type { WbRow, WorkbookRows } from '../workbook-rows.js';
import { PLAN_NOTES, rowWords } from '../plan-notes.js';

export type Obj = Record<string, unknown>;

export interface PlanProgress {
  phase: PlanPhase;
  done: number;
  total: number;
}

type Ref =
  | { state: 'id'; id: string }
  | { state: 'pending'; key: string; code: string }
  | { state: 'blocked'; key: string }
  | { state: 'missing'; reason: string; code: PlanProblemCode; params: IssueParams };

/** Facts of a supplier product after this import (for the silo rules and BOM plants). */
export interface ProductFacts {
  plant_id: string | null;
  material_key: string | null;
  supplier_plant_id: string | null;
}

/** What the service index holds for a code of a kind. */
type Found<K extends keyof ServiceIndex> = ServiceIndex[K] extends Map<string, infer V> ? V : never;

/** Where a problem is: a row of a sheet (a workbook row, or an entry's sheet and row). */
export type RowAt = Pick<WbRow<unknown>, 'sheet' | 'sheetName' | 'row'>;

/** A problem's words and code (what `problemAt` puts at a cell). */
interface ProblemWords {
  kind: PlanProblem['kind'];
  message: string;
  code?: PlanProblemCode;
  params?: IssueParams;
}

/** What notes the entries as they are emitted (in-use.ts PlannedUses). */
export interface EntryNotes {
  note(e: PlanEntry): void;
}

export class PlanState {
  readonly preflightProblems: PlanProblem[] = [];
  /** Compact refs of the entries emitted (the entries themselves are in the sink: memory or a file). */
  private readonly byKey = new Map<string, EntryRef>();
  /** Per kind: code → key of the entry (first row) that defines the code in this workbook. */
  private readonly defining = new Map<IdentifiedKind, Map<string, string>>();
  /** The facts `decide` noted of the entry it is about to emit (they go onto the entry's ref). */
  private noted: { key: string; facts: EntryFacts } | null = null;
  readonly codeOfId: (id: string) => string | undefined;
  /** The references the plan's writes leave, when the plan deletes (in-use.ts PlannedUses: the deletes' in-use check reads them). */
  uses?: EntryNotes;
  /** One copy of each id and key string the per-entry facts above hold (most products share a few plants). */
  private readonly strings = new Map<string, string>();

  constructor(
    readonly wb: WorkbookRows,
    readonly svc: ServiceIndex,
    readonly me: Me,
    readonly maskedKey: string,
    readonly createOnly: boolean,
    /** Where the entries go, in plan order (deletes held back and written last: see plan-sink.ts). */
    readonly sink: PlanSink,
  ) {
    this.codeOfId = (id) => svc.codeOfId.get(id.toLowerCase());
  }

  /** The one copy of a string kept for the planner's facts (a plant id, a material or pending key). */
  intern<S extends string | null>(s: S): S {
    if (s === null) return s;
    const hit = this.strings.get(s);
    if (hit !== undefined) return hit as S;
    this.strings.set(s, s);
    return s;
  }

  /** While a row is decided ahead of its turn (ahead.ts `trial`): its entries and their refs, kept out of the plan. */
  private tried: { entries: PlanEntry[]; refs: EntryRef[] } | null = null;

  /** The one place an entry enters the plan (during a trial: is kept by the trial instead). */
  emit(e: PlanEntry): void {
    const ref = this.refOf(e);
    if (this.tried) {
      this.tried.entries.push(e);
      this.tried.refs.push(ref);
      return;
    }
    this.uses?.note(e);
    this.sink.add(e);
    this.byKey.set(e.key, ref);
  }

  /** What later rows ask of the entity entry `key` about to be emitted (decide.ts): kept on its ref. */
  noteFacts(key: string, facts: EntryFacts): void {
    this.noted = { key, facts };
  }

  private refOf(e: PlanEntry): EntryRef {
    const noted = this.noted?.key === e.key ? this.noted.facts : undefined;
    if (noted) this.noted = null;
    return entryRef(e, noted);
  }

  /**
   * The entries `decide` emits in `fn`, kept out of the plan (the caller emits them at their turn, or drops them
   * and decides the row again then), and the preflight problems `fn` noted, taken back out of the plan's list.
   */
  trial(fn: () => void): { entries: PlanEntry[]; refs: EntryRef[]; preflight: PlanProblem[] } {
    const before = this.preflightProblems.length;
    const tried = { entries: [] as PlanEntry[], refs: [] as EntryRef[] };
    this.tried = tried;
    let preflight: PlanProblem[] = [];
    try {
      fn();
    } finally {
      this.tried = null;
      preflight = this.preflightProblems.splice(before);
    }
    return { ...tried, preflight };
  }

  /**
   * An `unchanged` entry decided ahead of its turn (ahead.ts), at its turn: into the plan as `emit` puts it, from
   * its JSON line and compact ref (an unchanged entry notes no uses).
   */
  emitUnchanged(line: string | Uint8Array, ref: EntryRef, rowCount: number): void {
    if (ref.action !== 'unchanged') throw new Error(`internal: ${ref.key} decided ahead is ${ref.action}`);
    this.sink.addLine(line, { sheet: ref.sheet, action: ref.action, level: ref.level, rowCount });
    this.byKey.set(ref.key, ref);
  }

  entry(key: string): EntryRef | undefined {
    return this.byKey.get(key);
  }

  /** The key of the entry (first row) that defines `code` of `kind` in this workbook. */
  definingKey(kind: IdentifiedKind, code: string): string | undefined {
    return this.defining.get(kind)?.get(code);
  }

  /** Row `key` defines `code` of `kind`: the key of the first row that does (`key` when it is the first). */
  define(kind: IdentifiedKind, code: string, key: string): string {
    let codes = this.defining.get(kind);
    if (!codes) this.defining.set(kind, (codes = new Map()));
    const first = codes.get(code);
    if (first !== undefined) return first;
    codes.set(code, key);
    return key;
  }

  /** The entry of the row that defines `code` of `kind` in this workbook. */
  definingEntry(kind: IdentifiedKind, code: string): EntryRef | undefined {
    const key = this.definingKey(kind, code);
    return key === undefined ? undefined : this.byKey.get(key);
  }

  // ------------------------------------------------------------ references

  private ref(kind: IdentifiedKind, code: string): Ref {
    const key = this.definingKey(kind, code);
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
      reason:
        why ??
        `no ${nounOf(kind)} with external_id "${code}" in this workbook or on the service${didYouMean(code, this.knownCodes(kind))}`,
      ...this.unknownCode(kind, 'reference_unknown', {
        value: code,
        entityKind: kind,
        ...hintParam(code, this.knownCodes(kind)),
      }),
    };
  }

  /** Codes of one kind known on the service or defined in the workbook (for "did you mean …?"). */
  private knownCodes(kind: IdentifiedKind): string[] {
    const out = new Set<string>(this.svc[kind].keys());
    for (const e of this.byKey.values()) if (e.kind === kind && e.externalId) out.add(e.externalId);
    return [...out];
  }

  /** Code and params of an unresolved code: the service's list unreadable, else `code` with `params`. */
  unknownCode(
    kind: keyof ServiceIndex['unreadable'],
    code: PlanProblemCode,
    params: IssueParams,
  ): { code: PlanProblemCode; params: IssueParams } {
    const unreadable = this.svc.unreadable[kind] ? this.svc.unreadableParams?.[kind] : undefined;
    if (this.svc.unreadable[kind] && !unreadable)
      return { code: 'service_unreadable', params: { detail: this.svc.unreadable[kind] } };
    return unreadable ? { code: 'service_unreadable', params: unreadable } : { code, params };
  }

  /** A problem at the cell of `field` in row `r`. */
  problemAt(r: RowAt, field: string, p: ProblemWords): PlanProblem {
    const { kind, message, ...coded } = p;
    return {
      kind,
      sheet: r.sheetName,
      cell: this.wb.cell(r.sheet, field, r.row),
      row: r.row,
      field,
      message,
      ...coded,
    };
  }

  /**
   * A code of `kind` the service does not know (or could not list), at the cell of `field`: `detail` says so
   * unless the service's list was unreadable.
   */
  unresolvedAt(
    r: RowAt,
    field: string,
    kind: keyof ServiceIndex['unreadable'],
    detail: string,
    code: PlanProblemCode,
    params: IssueParams,
    problemKind: 'unresolved' | 'unreadable' = 'unresolved',
  ): PlanProblem {
    return this.problemAt(r, field, {
      kind: problemKind,
      message: `${field}: ${this.svc.unreadable[kind] ?? detail}`,
      ...this.unknownCode(kind, code, params),
    });
  }

  /** A reference cell → the value for the body (id or Pending), or a problem at the cell. */
  refValue(
    d: { problems: PlanProblem[] },
    r: WbRow<unknown>,
    field: string,
    kind: IdentifiedKind,
    code: string,
  ): string | Pending | undefined {
    const ref = this.ref(kind, code);
    if (ref.state === 'id') return ref.id;
    if (ref.state === 'pending') return pending(ref.key, code);
    if (ref.state === 'blocked') {
      const target = this.byKey.get(ref.key);
      d.problems.push(
        this.problemAt(r, field, {
          kind: 'dependency_blocked',
          message: `${field} "${code}" refers to ${target ? refLabel(target) : ref.key} (${rowName(target)}), which is blocked`,
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
                      targetLabel: refLabel(target),
                      targetSheet: target.sheet,
                      targetRow: target.row,
                      variant: 'row',
                    },
              }
            : {}),
        }),
      );
    } else
      d.problems.push(
        this.problemAt(r, field, {
          kind: 'unresolved',
          message: `${field}: ${ref.reason}`,
          code: ref.code,
          params: ref.params,
        }),
      );
    return undefined;
  }

  /**
   * A plant, material or product code → what the service index has for it (a mapping sheet, the profile or the
   * service), or a problem at the cell: `why` says what is unknown (made only then: its hint is not cheap).
   */
  lookup<K extends 'plant' | 'material' | 'product'>(
    d: { problems: PlanProblem[] },
    r: RowAt,
    field: string,
    kind: K,
    code: string,
    why: () => { detail: string; code: PlanProblemCode; params: IssueParams },
  ): Found<K> | undefined {
    const found = (this.svc[kind] as Map<string, Found<K>>).get(code);
    if (!found) {
      const w = why();
      d.problems.push(this.unresolvedAt(r, field, kind, w.detail, w.code, w.params));
    }
    return found;
  }

  /** A plant code → its id, or a problem at the cell. */
  plantValue(d: { problems: PlanProblem[] }, r: RowAt, field: string, code: string): string | undefined {
    return this.lookup(d, r, field, 'plant', code, () => ({
      detail: `plant code "${code}" is not in the plants sheet, the profile's mappings or among the plants this API key can see (the key may not reach that plant)${didYouMean(code, this.svc.plant.keys())}`,
      code: 'plant_unknown',
      params: { value: code, ...hintParam(code, this.svc.plant.keys()) },
    }))?.id;
  }

  /** The plant of a component (from its row in this import, else the service's entity). */
  plantOfComponent(kind: IdentifiedKind, code: string): string | null {
    const key = this.definingKey(kind, code);
    if (key) return this.byKey.get(key)?.plant ?? null;
    const e = this.svc[kind].get(code) as { plant_id?: string } | undefined;
    return e?.plant_id ? e.plant_id.toLowerCase() : null;
  }

  /** A product instance's entry in this import (when a row defines it) and the plant it is at. */
  instance(code: string): { entry: EntryRef | undefined; plant: string | null | undefined } {
    const entry = this.definingEntry('product_instance', code);
    const plant = entry ? entry.plant : this.svc.product_instance.get(code)?.plant_id?.toLowerCase();
    return { entry, plant };
  }

  /** `after create of X (sheet row N)` for each entry a write waits for. */
  afterNotes(keys: readonly string[]): string[] {
    return [...new Set(keys)].map((k) => {
      const e = this.byKey.get(k);
      return PLAN_NOTES.afterCreate(e ? refLabel(e) : k, rowName(e));
    });
  }

  plantLabel(id: string | undefined): string {
    if (!id) return '?';
    for (const [code, p] of this.svc.plant) if (p.id === id) return `${code} (${id})`;
    return id;
  }

  /** The entry every kind starts from: blocked until decided. */
  newEntry(
    kind: EntityKind,
    key: string,
    at: { sheet: PlanEntry['sheet']; row: number; rows: PlanEntry['rows'] },
    externalId: string | null,
    label: string,
    id: string | null = null,
    level = LEVEL[kind],
  ): PlanEntry {
    return { key, kind, level, sheet: at.sheet, row: at.row, rows: at.rows, externalId, label, action: 'blocked', id };
  }
}

export function rowName(e: EntryRef | undefined): string {
  return rowWords(e);
}

/** ` (did you mean MAT-SAND?)` for an unknown code, when a known one is a near miss: nothing unknown is silently ignored. */
export function didYouMean(code: string, known: Iterable<string>): string {
  const hits = closestCodes(code, known);
  return hits.length ? ` (did you mean ${hits.join(' or ')}?)` : '';
}

export function hintParam(code: string, known: Iterable<string>): { hint?: string } {
  const hits = closestCodes(code, known);
  return hits.length ? { hint: hits.join(', ') } : {};
}
