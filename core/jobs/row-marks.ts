/**
 * Row marks: what the results workbooks (and the results files of CSV sources) need of each worksheet row of a
 * job — its outcome, id, error code and message — per registry sheet. Made from the job's compact index
 * (rowMarks) or following a running job (liveRowMarks); and the
 * rows of entries without a worksheet row (a mirrored sheet's deletes: rowlessFailedRow). The message a row
 * gets: outcomeMessage.
 */
import type { DataSheetName } from '../workbook/types.js';
import type { WritableRow } from '../workbook/xlsx-layout.js';
import type { EntryIndex } from './entry-index.js';
import type { EntryOutcome, EntryState, PlanEntry } from './types.js';
import { succeeded, type JobRowOutcome } from '../names.js';
import { PART_ROW_OFFSET } from '../workbook/sheet-parts.js';

/**
 * What the results workbooks need of a worksheet row: its outcome, id, error code and message, computed once
 * per entry and shared by the entry's rows (a BOM's rows, a product's hazardous substances). A few strings per
 * row, not the entry with its body, changes and notes.
 */
export interface RowMark {
  outcome: JobRowOutcome;
  id: string;
  errCode: string;
  message: string;
  /** `_err_code` of the failed-rows workbook (the error code, `skipped:<reason>` or the outcome). */
  failedCode: string;
  succeeded: boolean;
}

/** The marks of the rows of a job, per registry sheet (rowMarks, or liveRowMarks beside a running job). */
export interface RowMarks {
  sheet(name: DataSheetName): { get(row: number): RowMark | undefined };
  /** Some row did not succeed (failed, skipped, pending). */
  readonly anyNotSucceeded: boolean;
  /** The rows the failed-rows workbook adds for entries without a worksheet row (rowlessFailedRow). */
  readonly rowless?: readonly RowlessRow[];
}

/** A row of the failed-rows workbook that stands for an entry without a worksheet row. */
export interface RowlessRow {
  sheet: DataSheetName;
  values: WritableRow;
  /** The entry's outcome, as a row's (the results files of CSV sources write it in their result columns). */
  mark: RowMark;
}

/**
 * An entry that has no worksheet row but is one in the failed-rows workbook (and counts as one row there): a
 * delete of a mirrored sheet (the sheet no longer has the entity, so no row stands for it).
 */
export function rowlessCounts(action: string, rowCount: number): boolean {
  return rowCount === 0 && action === 'delete';
}

/**
 * The failed-rows workbook's row of such an entry that did not succeed: its code, action `delete` (a re-run of
 * the workbook deletes it again) and the error — what still uses it, in the service's words.
 */
export function rowlessFailedRow(entry: PlanEntry, o: EntryState): RowlessRow | null {
  if (!rowlessCounts(entry.action, entry.rows.length) || succeeded(o.outcome) || !entry.externalId) return null;
  const mark = markOf(entry, o, entry.id);
  return {
    sheet: entry.sheet,
    values: {
      external_id: entry.externalId,
      action: 'delete',
      _err_code: mark.failedCode,
      _message: mark.message || `${entry.label}: ${o.outcome}`,
    },
    mark,
  };
}

function markOf(
  entry: PlanEntry | null,
  o: EntryState,
  plannedId: string | null | undefined,
  message?: string,
): RowMark {
  const full = o as EntryOutcome;
  return {
    outcome: o.outcome,
    id: full.id ?? plannedId ?? '',
    errCode: full.err_code ?? '',
    message: message ?? outcomeMessage(entry, o),
    failedCode: full.err_code ?? (o.outcome === 'skipped' ? `skipped:${full.reason ?? ''}` : o.outcome),
    succeeded: succeeded(o.outcome),
  };
}

/** Outcomes whose message is made from the entry's changes or BOM difference (read from the plan's entries). */
function messageNeedsEntry(o: EntryState): boolean {
  const full = o as EntryOutcome;
  return (
    o.outcome === 'updated' || o.outcome === 'replaced' || (o.outcome === 'skipped' && full.reason === 'create_only')
  );
}

/** Per sheet, worksheet row → entry (-1: none), from the job's index: typed arrays, nothing per row but a number. */
function rowEntries(index: EntryIndex): (name: DataSheetName) => (row: number) => number {
  // Per sheet, per source (a sheet fed by several sources numbers the n-th one's rows from n × PART_ROW_OFFSET):
  // row within the source → entry + 1.
  const part = (row: number) => Math.floor(row / PART_ROW_OFFSET);
  const maxRow = new Map<DataSheetName, number[]>();
  for (let i = 0; i < index.size; i++)
    index.forEachRow(i, (sheet, row) => {
      let m = maxRow.get(sheet);
      if (!m) maxRow.set(sheet, (m = []));
      const p = part(row);
      m[p] = Math.max(m[p] ?? 0, row % PART_ROW_OFFSET);
    });
  const rowsOf = new Map<DataSheetName, Int32Array[]>();
  for (const [sheet, max] of maxRow)
    rowsOf.set(
      sheet,
      Array.from(max, (m) => new Int32Array((m ?? 0) + 1)),
    );
  for (let i = 0; i < index.size; i++)
    index.forEachRow(i, (sheet, row) => (rowsOf.get(sheet)![part(row)][row % PART_ROW_OFFSET] = i + 1));
  return (name) => {
    const parts = rowsOf.get(name);
    return (row) => {
      const rows = parts?.[part(row)];
      const r = row % PART_ROW_OFFSET;
      return rows && r < rows.length ? rows[r] - 1 : -1;
    };
  };
}

/** A sheet's row marks over the index: each row's mark made, when asked for, from its entry's outcome and id. */
function sheetMarks(
  index: EntryIndex,
  entryOf: (name: DataSheetName) => (row: number) => number,
  message: (i: number) => string | undefined,
): RowMarks['sheet'] {
  return (name) => {
    const entry = entryOf(name);
    return {
      get: (row) => {
        const i = entry(row);
        if (i < 0) return undefined;
        const o = index.outcomeOf(i);
        return markOf(null, o, index.id(i), message(i) ?? (messageNeedsEntry(o) ? '' : undefined));
      },
    };
  };
}

function anyNotSucceeded(index: EntryIndex): boolean {
  for (let i = 0; i < index.size; i++) if (!index.succeeded(i)) return true;
  return false;
}

/**
 * The row marks of a job from its compact index: per sheet a typed array worksheet row → entry, a
 * mark made when a row is written. One pass over plan-entries.jsonl keeps the messages that need the entry
 * (what an update changed, a BOM's difference); nothing else is held per row.
 */
export async function rowMarks(index: EntryIndex): Promise<RowMarks> {
  const entryOf = rowEntries(index);
  const messages = new Map<number, string>();
  const rowless: RowlessRow[] = [];
  await index.forEachEntry((e, i) => {
    const o = index.outcomeOf(i);
    const extra = rowlessFailedRow(e, o);
    if (extra) rowless.push(extra);
    if (!messageNeedsEntry(o)) return;
    const m = outcomeMessage(e, o);
    if (m) messages.set(i, m);
  });
  return {
    anyNotSucceeded: anyNotSucceeded(index),
    sheet: sheetMarks(index, entryOf, (i) => messages.get(i)),
    rowless,
  };
}

/**
 * Row marks that follow a job while it runs, so that its results workbook is written beside it (the CLI's
 * import: the rows are copied while the service is being waited for, not after the job). A row's mark is final
 * once its entry has settled: `ready` waits for that (null when there is nothing to wait for), `settled(i)` is
 * told by the job (RunOptions.onSettled), `finish()` once the job stopped (entries that did not run are
 * `pending`), `fail(e)` when it could not run (every wait rejects: the workbook is not written).
 */
export interface LiveRowMarks extends RowMarks {
  ready(name: DataSheetName, row: number): Promise<void> | null;
  settled(i: number): void;
  finish(): void;
  fail(e: unknown): void;
}

export function liveRowMarks(index: EntryIndex): LiveRowMarks {
  const entryOf = rowEntries(index);
  const waiters = new Map<number, { resolve: () => void; reject: (e: unknown) => void }[]>();
  /** The messages made from the entry (an update's changes, a BOM's difference), read once it settled. */
  const reading = new Map<number, Promise<void>>();
  const texts = new Map<number, string>();
  let finished = false;
  let failure: { e: unknown } | null = null;
  const readMessage = (i: number): Promise<void> => {
    let r = reading.get(i);
    if (!r)
      reading.set(
        i,
        (r = index.entry(i).then((e) => {
          texts.set(i, outcomeMessage(e, index.outcomeOf(i)));
        })),
      );
    return r;
  };
  const marks: LiveRowMarks = {
    get anyNotSucceeded() {
      return anyNotSucceeded(index);
    },
    sheet: sheetMarks(index, entryOf, (i) => texts.get(i)),
    ready(name, row) {
      if (failure) return Promise.reject(failure.e);
      const i = entryOf(name)(row);
      if (i < 0) return null;
      if (!index.hasOutcome(i) && !finished)
        return new Promise<void>((resolve, reject) => {
          let w = waiters.get(i);
          if (!w) waiters.set(i, (w = []));
          w.push({ resolve, reject });
        }).then(() => marks.ready(name, row) ?? undefined);
      return messageNeedsEntry(index.outcomeOf(i)) && !texts.has(i) ? readMessage(i) : null;
    },
    settled(i) {
      const w = waiters.get(i);
      waiters.delete(i);
      for (const x of w ?? []) x.resolve();
    },
    finish() {
      finished = true;
      for (const w of waiters.values()) for (const x of w) x.resolve();
      waiters.clear();
    },
    fail(e) {
      failure = { e };
      for (const w of waiters.values()) for (const x of w) x.reject(e);
      waiters.clear();
    },
  };
  return marks;
}

/** The message a row gets: the error with the catalog's explanation, the skip reason, or what changed. */
export function outcomeMessage(entry: PlanEntry | null, o: EntryState): string {
  if (o.outcome === 'pending') return 'not run yet: resume the job';
  const full = o as EntryOutcome;
  if (full.outcome === 'failed') {
    const parts = [full.msg ?? ''];
    if (full.entitlement_limit)
      parts.push(
        `${full.entitlement_limit.dimension}: ${full.entitlement_limit.usage} / ${full.entitlement_limit.limit}`,
      );
    if (full.explanation) parts.push(full.explanation);
    if (full.action_hint) parts.push(full.action_hint);
    return parts.filter(Boolean).join(' — ');
  }
  if (full.outcome === 'skipped') {
    if (full.reason === 'create_only' && entry?.changes) return `${full.msg ?? 'skipped'}: ${changesText(entry)}`;
    return full.msg ?? 'skipped';
  }
  if (full.outcome === 'updated' && entry?.changes) return changesText(entry);
  if (full.outcome === 'replaced' && entry?.bomDiff) {
    const d = entry.bomDiff;
    return `BOM replaced: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} mass changed, ${d.unchanged} unchanged`;
  }
  if (full.outcome === 'already_existed') return 'already on the service with the same values';
  if (full.outcome === 'replayed') return 'created earlier (Idempotency-Key replay)';
  return '';
}

function changesText(entry: PlanEntry): string {
  return (entry.changes ?? []).map((c) => `${c.field}: ${show(c.before)} → ${show(c.after)}`).join('; ');
}

function show(v: unknown): string {
  if (v === null || v === undefined) return '(blank)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
