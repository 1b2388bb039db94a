/**
 * How the CLI prints workbook issues, plans and job results for people (tables and lines; --json prints the
 * data itself instead).
 */
import { decodeRow } from '../../workbook/sheet-parts.js';
import type { DataSheetName, Issue } from '../../workbook/types.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import type {
  EntryOutcome,
  JobResultSummary,
  JobStatus,
  JobSummary,
  OutcomeCounts,
  Plan,
  PlanEntry,
  PlanHeader,
  PlanProblem,
  StopReason,
} from '../../app/import-job.js';
import { JOB_ROW_OUTCOMES, PLAN_ACTIONS, succeeded } from '../../names.js';

/** Most detail lines printed before "… N more (use --json for all)". */
export const MAX_DETAILS = 200;

export function cellRef(sheet: string | null, cell: string | null): string {
  if (!sheet) return '(file)';
  return cell ? `${sheet}!${cell}` : sheet;
}

export function formatIssue(i: Issue): string {
  const where = cellRef(i.sheet, i.cell);
  return `${i.severity === 'error' ? 'error  ' : 'warning'} ${where}${i.field ? ` (${i.field})` : ''}: ${i.message}`;
}

export function formatIssues(issues: readonly Issue[], max = MAX_DETAILS): string[] {
  const sorted = [...issues].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const lines = sorted.slice(0, max).map(formatIssue);
  if (sorted.length > max) lines.push(`… and ${sorted.length - max} more (use --json for all)`);
  return lines;
}

export function table(header: string[], rows: (string | number)[][]): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  // Numbers right-aligned, text left-aligned.
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [fmt(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(fmt)];
}

export { PLAN_ACTIONS };

function show(v: unknown): string {
  if (v === null || v === undefined) return '(blank)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function problemLine(p: PlanProblem): string {
  const at = p.sheet ? `${cellRef(p.sheet, p.cell)}${p.field ? ` (${p.field})` : ''}: ` : '';
  return `${at}${p.message}${p.err_code ? ` [${p.err_code}]` : ''}`;
}

/** The source's names of a plan's sheets (a CSV's file name, a workbook's own sheet name), when known. */
type PlanSources = Pick<Plan, 'sheetNames' | 'sheetParts'>;

/** A plan row at its source: `MAT_2025-11.csv!3`. */
function rowAt(plan: PlanSources | undefined, sheet: DataSheetName, row: number): string {
  const at = decodeRow(plan?.sheetParts?.[sheet], plan?.sheetNames[sheet] ?? sheet, row);
  return `${at.sheetName}!${at.row}`;
}

/** Where an entry's row is in its source: `MAT_2025-11.csv!3`, `Items!5` (the sheet's name without a plan). */
function where(e: PlanEntry, plan?: PlanSources): string {
  const at = decodeRow(plan?.sheetParts?.[e.sheet], plan?.sheetNames[e.sheet] ?? e.sheet, e.row);
  if (e.kind === 'bom')
    return `${at.sheetName === e.sheet ? 'bom' : at.sheetName} (${e.rows.length} row${e.rows.length === 1 ? '' : 's'} from row ${at.row})`;
  return e.rows.length === 0 ? `not in ${plan?.sheetNames[e.sheet] ?? e.sheet}: mirror` : rowAt(plan, e.sheet, e.row);
}

/** Details of one entry: the action, where (at its source, with the plan), what, and field-level before → after. */
export function entryLines(e: PlanEntry, plan?: PlanSources): string[] {
  const lines = [`${e.action.padEnd(14)} ${e.label}  (${where(e, plan)})`];
  for (const c of e.changes ?? []) lines.push(`                 ${c.field}: ${show(c.before)} → ${show(c.after)}`);
  if (e.bomDiff) {
    const d = e.bomDiff;
    for (const a of d.added) lines.push(`                 + ${a.type} ${a.code}: ${a.mass_kg} kg`);
    for (const r of d.removed) lines.push(`                 - ${r.type} ${r.code}: ${r.mass_kg} kg`);
    for (const c of d.changed) lines.push(`                 ~ ${c.type} ${c.code}: ${c.before} → ${c.after} kg`);
  }
  for (const p of e.problems ?? []) lines.push(`                 ${problemLine(p)}`);
  for (const n of e.notes ?? []) lines.push(`                 note: ${n}`);
  return lines;
}

/**
 * The plan in words: counts per sheet and action, then (up to `max`) the entries. `entries` is read once, in
 * order, and only the entries shown are kept (a plan's entries may be read from its file: readEntriesSync).
 */
export function formatPlan(
  plan: PlanHeader,
  max = MAX_DETAILS,
  entries: Iterable<PlanEntry> = (plan as Partial<Plan>).entries ?? [],
): string[] {
  const out: string[] = [];
  const sheets = Object.entries(plan.summary.bySheet);
  const used = PLAN_ACTIONS.filter((a) => (plan.summary.byAction[a] ?? 0) > 0 || a === 'create' || a === 'unchanged');
  out.push(
    `Plan for ${plan.file} against ${plan.baseUrl} (key ${plan.maskedKey}${plan.options.createOnly ? ', create only' : ''}):`,
  );
  out.push(
    ...table(
      ['sheet', ...used],
      sheets.map(([sheet, counts]) => [sheet, ...used.map((a) => counts?.[a] ?? 0)]),
    ).map((l) => `  ${l}`),
  );
  out.push(
    `  total: ${used.map((a) => `${plan.summary.byAction[a] ?? 0} ${a}`).join(', ')} (${plan.summary.rows} rows; ${plan.requests} requests to plan)`,
  );
  for (const p of plan.preflight.problems) out.push(`  preflight: ${problemLine(p)}`);
  for (const m of plan.mirror ?? [])
    out.push(
      `  mirror ${m.sheet}: ${m.deletes} of ${m.managed} with an external_id not in the sheet, cap ${m.cap}${m.overCap ? ` — over the cap: nothing is deleted (raise --max-deletes to allow it)` : ''}`,
    );
  if (plan.notManaged?.length) {
    out.push(`  not managed by the workbook (no external_id; never touched): ${plan.notManaged.length}`);
    for (const n of plan.notManaged.slice(0, Math.max(max, 0)))
      out.push(`    ${n.kind.replace(/_/g, ' ')} ${n.id}${n.name ? ` "${n.name}"` : ''}`);
  }
  if (plan.ignoredRows?.length)
    out.push(`  ignored rows (action ignore): ${plan.ignoredRows.map((r) => rowAt(plan, r.sheet, r.row)).join(', ')}`);
  if (max <= 0) return out;
  // Only unchanged entries (a re-sync): nothing more to show, and the entries are not read back.
  if (Object.entries(plan.summary.byAction).every(([a, n]) => a === 'unchanged' || !n)) return out;
  // One pass: every delete (they run last, in this order), then up to `max` others, changes before creates.
  const deletes: PlanEntry[] = [];
  const detailed: PlanEntry[] = [];
  const creates: PlanEntry[] = [];
  let others = 0;
  for (const e of entries) {
    if (e.level > 6 && (e.action === 'delete' || e.action === 'blocked')) deletes.push(e);
    else if (e.action === 'unchanged') continue;
    else {
      others++;
      if (e.action === 'create') {
        if (creates.length < max) creates.push(e);
      } else if (detailed.length < max) detailed.push(e);
    }
  }
  if (deletes.length) {
    // Every delete as its own line, with the entity's name (they run last, in this order).
    out.push('', 'deletes (after every create and update, in this order):');
    for (const e of deletes) out.push(...entryLines(e, plan));
  }
  if (others > 0) out.push('');
  let n = 0;
  for (const e of [...detailed, ...creates]) {
    if (n >= max) break;
    out.push(
      // An undo's re-creates say they get a new id: their notes are shown.
      ...(e.action === 'create' && !plan.undoes
        ? [
            `create         ${e.label}  (${where(e, plan)})${e.dependsOn?.length ? `  ${e.notes?.find((x) => x.startsWith('after')) ?? ''}` : ''}`,
          ]
        : entryLines(e, plan)),
    );
    n++;
  }
  if (others > n) out.push(`… and ${others - n} more entries (use --json for all)`);
  return out;
}

export function countsLine(counts: OutcomeCounts): string {
  const parts = JOB_ROW_OUTCOMES.filter((o) => (counts[o] ?? 0) > 0).map((o) => `${counts[o]} ${o}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

/** Why a job stopped, in words, when its status alone does not say it (a cancel is "cancelled", a pause "paused"). */
const STOP_WORDS: Record<StopReason, string | null> = {
  auth: 'the API key was refused',
  daily_limit: "the service's daily request limit is reached",
  user_pause: null,
  cancelled: null,
};

/**
 * A job's status as one honest phrase, each fact once: "completed" only when no row failed, was skipped or is
 * pending ("completed with 1 failed, 2 skipped" otherwise); a stop with its reason when that adds something
 * ("paused: the service's daily request limit is reached"), never "cancelled (cancelled)".
 */
export function jobStatusText(
  status: JobStatus,
  reason: StopReason | undefined,
  counts: OutcomeCounts,
  unit?: { one: string; many: string },
): string {
  if (status === 'completed') {
    const bad = JOB_ROW_OUTCOMES.filter((o) => !succeeded(o) && (counts[o] ?? 0) > 0);
    if (bad.length === 0) return 'completed';
    const total = bad.reduce((n, o) => n + (counts[o] ?? 0), 0);
    const noun = unit ? ` ${total === 1 ? unit.one : unit.many}` : '';
    return `completed with ${bad.map((o) => `${counts[o]} ${o}`).join(', ')}${noun}`;
  }
  const why = reason ? STOP_WORDS[reason] : null;
  return why ? `${status}: ${why}` : status;
}

/** A job's result in words: its status, rows per sheet and outcome, then the rows that failed or were skipped (read back from the job's folder, only those shown). */
export async function formatResult(r: IndexedJobResult, max = MAX_DETAILS): Promise<string[]> {
  const shown: [PlanEntry | undefined, EntryOutcome][] = [];
  let count = 0;
  for (const [i, o] of r.index.notPlain()) {
    if (o.outcome !== 'failed' && o.outcome !== 'skipped') continue;
    if (shown.length < max) shown.push([await r.index.entry(i), o]);
    count++;
  }
  return resultLines(r.result, shown, count, max);
}

function resultLines(
  result: JobResultSummary,
  bad: readonly (readonly [PlanEntry | undefined, EntryOutcome])[],
  badCount: number,
  max: number,
): string[] {
  const out: string[] = [];
  // The message (when there is one) says why the job stopped and what to do: the status line does not repeat it.
  // Counted in worksheet rows, like the table below and the results workbook (a BOM is one entry, many rows).
  const rows: OutcomeCounts = {};
  for (const c of Object.values(result.bySheet))
    for (const [o, n] of Object.entries(c ?? {}) as [keyof OutcomeCounts, number][]) rows[o] = (rows[o] ?? 0) + n;
  const status = jobStatusText(result.status, result.message ? undefined : result.reason, rows, {
    one: 'row',
    many: 'rows',
  });
  out.push(`Job ${result.jobId}: ${status} (${(result.durationMs / 1000).toFixed(1)} s, ${result.requests} requests).`);
  if (result.message) out.push(`  ${result.message}`);
  const sheets = Object.entries(result.bySheet);
  const used = JOB_ROW_OUTCOMES.filter((o) => sheets.some(([, c]) => (c?.[o] ?? 0) > 0));
  if (sheets.length && used.length) {
    out.push(
      ...table(
        ['rows by sheet', ...used],
        sheets.map(([s, c]) => [s, ...used.map((o) => c?.[o] ?? 0)]),
      ).map((l) => `  ${l}`),
    );
  }
  for (const l of result.entitlementLimits) {
    out.push(`  entitlement limit reached: ${l.dimension} ${l.usage} / ${l.limit}`);
  }
  let n = 0;
  for (const [e, r] of bad) {
    if (n >= max) break;
    const o = r as { err_code?: string; msg?: string; explanation?: string; reason?: string; status?: number };
    const why =
      r.outcome === 'failed'
        ? `${o.status ? `HTTP ${o.status} ` : ''}${o.err_code ?? ''}: ${o.explanation ?? o.msg ?? ''}`
        : o.msg && o.reason && o.msg.startsWith(o.reason)
          ? o.msg
          : `${o.reason ?? ''}${o.msg ? `: ${o.msg}` : ''}`;
    out.push(`  ${r.outcome.padEnd(8)} ${e ? `${e.label} (${where(e)})` : r.key}  ${why}`);
    n++;
  }
  if (badCount > n) out.push(`… and ${badCount - n} more (see the results workbook or use --json)`);
  return out;
}

export function formatJobs(jobs: readonly JobSummary[]): string[] {
  if (jobs.length === 0) return ['No jobs yet.'];
  return table(
    ['job', 'status', 'file', 'started', 'rows', 'outcomes'],
    jobs.map((j) => [
      j.jobId,
      `${jobStatusText(j.status, j.reason, j.counts)}${j.resumable ? ' (resumable)' : ''}`,
      j.undoes ? `undo of ${j.undoes} (${j.file})` : j.file,
      j.createdAt.replace('T', ' ').slice(0, 19),
      j.rows,
      countsLine(j.counts),
    ]),
  );
}
