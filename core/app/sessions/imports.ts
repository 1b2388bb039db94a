/**
 * Workbooks being imported through the Import screen: read and checked once (readSources + validateWorkbook),
 * then planned against the active connection (planJob, import-job.ts: reads only). Everything stays on the main side; the
 * renderer gets an overview and pages of rows (job-views.ts). A few sessions are kept at most (the oldest is
 * forgotten), so memory stays bounded however many workbooks a user opens.
 *
 * The dry run plans into the folder of the job that will run it (plan-entries.jsonl and plan.json, as
 * the CLI's import does; without meta.json it is no job the Jobs screen lists). The session keeps the plan's
 * header and where its entries are in the file (entry-lines.ts: an offset and a length each, no entry parsed);
 * pages of rows are read back from the file, a filter is one pass over it and its matches are kept as positions.
 * `import.run` starts the job in that folder (no second planning); a folder no run adopted is removed with its
 * session.
 */
import { isTextSource } from '../../workbook/sources/index.js';
import { partsOf } from '../../workbook/sheet-parts.js';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { csvSourcesOf, type CsvSource } from '../../jobs/csv-sources.js';
import { ApiError, createApiClient, type ApiClient } from '../../api/index.js';
import { jobDir, PLAN_ENTRIES_FILE } from '../../jobs/job-store.js';
import type { PlanHeader } from '../../jobs/types.js';
import type { DataSheetName, ParsedWorkbook, ValidationReport } from '../../workbook/types.js';
import {
  columnsView,
  previewMapping,
  type ColumnsView,
  type MappedPreview,
} from '../../workbook/column-mapping/columns.js';
import type { ColumnMapping } from '../../workbook/column-mapping/schema.js';
import { peekSource } from '../../workbook/sources/peek.js';
import { type CheckedSources, type CodesChecked } from '../validate.js';
import { readWhileWalking, walksFor } from '../read-ahead.js';
import { checkSourceCodes, withCodes } from '../codes.js';
import { blockedCount, savedMappings, type PlanOptions, type PlanServices } from '../import.js';
import { discardJob, planJob, type PlannedJob } from '../import-job.js';
import type { ImportValidation, PlanOverview, PlanRowFilter, PlanRowView } from '../../contract/index.js';
import { AppError } from '../errors.js';
import { serviceCodes } from '../known-codes.js';
import { activeConnection, resolveConnection, type Connection } from '../profiles.js';
import { SANDBOX_PROFILE_ID } from '../../settings/settings.js';
import type { ServiceWalks } from '../../jobs/service-walks.js';
import type { CodeMappings, ServiceIndex } from '../../jobs/resolve.js';
import type { KnownCodes } from '../../workbook/column-mapping/suggest.js';
import type { HostServices } from '../host.js';
import { EntryLines } from './entry-lines.js';
import { page, planEntryFilter, planRowView, positionsPassing, problemView, rowLookup } from './job-views.js';
import type { RowLookup } from './job-views.js';
import { Throttle } from '../../throttle.js';
import type { ImportPhase } from '../../names.js';
import { requestsController } from '../../api/signal.js';

const MAX_SESSIONS = 3;
/** How long the service's codes fetched for the Columns step are used again (files chosen again, a new drop). */
const CODES_TTL_MS = 2 * 60_000;

/** The first rows of every source of an import (several files: a workbook's sheets and CSV files mixed). */
async function peekSources(app: HostServices, fileIds: readonly string[]) {
  const all = [];
  for (const id of fileIds) all.push(...(await peekSource(app.files.path(id))));
  return all;
}

export interface ImportSession {
  importId: string;
  fileId: string;
  fileName: string;
  fileSize: number;
  inputPath: string;
  /** the CSV sources the sheets were read from (their results are written in their own layout) */
  csvSources: CsvSource[];
  /** a workbook among CSV sources (mixed): its name; its results are a workbook */
  workbookName: string | null;
  parsed: ParsedWorkbook;
  /** the workbook's own report (without the codes pass's issues, nor its `references`) */
  report: ValidationReport;
  rowOf: RowLookup;
  /** the dry run's plan without its entries (those are in the folder of `planned`) */
  plan: PlanHeader | null;
  /** the folder the dry run planned into and the compact index of its entries (no entry held in memory) */
  planned: PlannedFolder | null;
  planInfo: {
    profileId: string;
    profileName: string;
    createOnly: boolean;
    onlyFailedOf: string | null;
    excluded: number;
  } | null;
  /** the last filter asked for and its matching entry positions (scrolling asks the same filter page after page) */
  filterCache: { key: string; indices: number[] } | null;
  /** the dry run's service reads started while the workbook was read (until the dry run uses them or the session goes) */
  ahead: WalksAhead | null;
  lastUsed: number;
}

/**
 * The plan's service reads (/v2/me, the collection walks: app/read-ahead.ts) started on the active connection while
 * the workbook is read, kept for the dry run on that connection; stopped when another connection plans or the
 * session goes.
 */
interface WalksAhead {
  client: ApiClient;
  walks: ServiceWalks;
  baseUrl: string;
  apiKey: string;
  /** the codes pass picked the codes out of the walks: its index, and the profile's mappings it used (JSON) */
  resolved?: { svc: ServiceIndex; mappings: string };
  /**
   * The dry run with the default options (not create-only, no mirror, every row), made by the check's codes pass
   * (planAhead): `import.plan` with those options shows it instead of planning again.
   */
  planned?: PlannedFolder;
}

/**
 * The walks once the codes pass has picked its codes out of them: what the dry run still takes of them (/v2/me's
 * answer, where its request count starts), not the walks themselves. The dry run uses the pass's index, and
 * picks nothing more from them; each picked walk would otherwise keep a second map of every entity it found (and
 * the codes asked for) beside that index until the dry run is over. Walks no code was asked of are stopped.
 */
function resolvedWalks(w: ServiceWalks): ServiceWalks {
  w.cancel();
  return { me: w.me, walks: {}, startRequests: w.startRequests, cancel: () => {} };
}

/** Stop reads ahead (none will be used), and remove the dry run the check made with them. */
function stopAhead(a: WalksAhead | null): void {
  if (!a) return;
  a.walks.cancel();
  void a.client.close().catch(() => {});
  const planned = a.planned;
  a.planned = undefined;
  void discardPlanned(planned ?? null).catch(() => {});
}

/** Stop the reads ahead of a session (none will be used). */
function dropAhead(s: ImportSession): void {
  const a = s.ahead;
  s.ahead = null;
  stopAhead(a);
}

/**
 * The reads ahead started as soon as the sources are known (`import.columns`), before `import.validate` reads
 * them: for the sources' ids and mapping of `key` (earlyKey), pending while the connection and the sheet lists are
 * looked at. `import.validate` takes them when its sources, mapping and connection are the same.
 */
interface EarlyWalks {
  key: string;
  fileIds: readonly string[];
  ready: Promise<WalksAhead | null>;
}

function earlyKey(fileIds: readonly string[], mapping: ColumnMapping | undefined): string {
  return JSON.stringify([fileIds, mapping ?? null]);
}

/**
 * The active connection for reads beside the read of a workbook, or undefined: none can be made, or it is the
 * embedded sandbox and not running (reading a workbook does not start it).
 */
async function connectionAhead(app: HostServices): Promise<Connection | undefined> {
  if (app.settings.snapshot().activeProfileId === SANDBOX_PROFILE_ID && !app.sandbox.baseUrl()) return undefined;
  return resolveConnection(app).catch(() => undefined);
}

/** A dry run's folder in the jobs folder: the job that runs it, once `import.run` adopted it. */
export interface PlannedFolder extends PlannedJob {
  /** where its entries are in its plan-entries.jsonl (entry-lines.ts: no entry or key held in memory) */
  index: EntryLines;
  /** a job was started in it: it stays when the session goes */
  adopted: boolean;
}

/** Where the entries of a dry run just planned are in its folder's plan-entries.jsonl (as many as the plan says). */
function planLines(job: PlannedJob): Promise<EntryLines> {
  const file = path.join(jobDir(job.jobsDir, job.jobId), PLAN_ENTRIES_FILE);
  const expected = job.plan.summary.entries;
  return EntryLines.ofFile(
    file,
    expected,
    (n) =>
      new Error(`The plan of job ${job.jobId} is incomplete: ${PLAN_ENTRIES_FILE} holds ${n} of ${expected} entries`),
  );
}

/** Forget a dry run's folder: its file closed, and the folder removed unless a job runs in it. */
async function discardPlanned(p: PlannedFolder | null): Promise<void> {
  if (!p) return;
  await p.index.close();
  if (!p.adopted) await rm(jobDir(p.jobsDir, p.jobId), { recursive: true, force: true });
}

function forget(s: ImportSession): void {
  dropAhead(s);
  const p = s.planned;
  s.planned = null;
  s.plan = null;
  s.filterCache = null;
  void discardPlanned(p).catch(() => {});
}

/**
 * The codes pass on the active connection (reads only), with the profile's saved mappings. A connection that
 * cannot be made or read leaves the codes unchecked, with the reason: the check of the workbook itself stands.
 */
async function codesOnConnection(
  app: HostServices,
  w: CheckedSources,
  signal: AbortSignal,
): Promise<{ report: ValidationReport; codes: CodesChecked }> {
  let conn;
  try {
    conn = await resolveConnection(app);
  } catch (e) {
    return { report: w.report, codes: { checked: false, reason: e instanceof Error ? e.message : String(e) } };
  }
  const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
  const mappings = savedMappings(app.settings, conn.profileId);
  try {
    return await checkSourceCodes(w, { client, ...(mappings && { mappings }), signal });
  } catch (e) {
    if (signal.aborted) throw e;
    return { report: w.report, codes: { checked: false, reason: uncheckedReason(e) } };
  } finally {
    await client.close();
  }
}

/** Why the codes could not be checked: the service's answer (or its absence), else what failed. */
function uncheckedReason(e: unknown): string {
  const reason = e instanceof Error ? e.message : String(e);
  return e instanceof ApiError
    ? `the service could not be read: ${reason}`
    : `the codes could not be checked: ${reason}`;
}

/** The dry run's default options: what the check plans ahead with (planAhead). */
const AHEAD_OPTIONS = { createOnly: false } as const;

function isDefaultPlan(o: PlanOptions): boolean {
  return !o.createOnly && !o.previous && !o.mirror?.length && o.maxDeletes === undefined;
}

/**
 * The codes pass as the dry run's plan (the CLI's `plan` does the same: its report's unknown codes are the plan's):
 * with the walks started beside the read, the plan is made as the dry run with the default options makes it, into
 * a job folder, its rows decided while the longest walk runs (jobs/plan/ahead.ts) rather than after it; the
 * report's unknown codes are the plan's. The dry run then shows that plan (no second planning), and a dry run with
 * other options uses the codes it resolved (`resolved`). A service that cannot be read leaves the codes unchecked,
 * with the reason; the check of the workbook itself stands.
 */
async function planAhead(
  jobsDir: string,
  w: CheckedSources,
  ahead: WalksAhead,
  mappings: CodeMappings | undefined,
  signal: AbortSignal,
  onProgress: PlanServices['onProgress'],
): Promise<{ report: ValidationReport; codes: CodesChecked }> {
  let svc: ServiceIndex | undefined;
  let job;
  try {
    job = await planJob(
      jobsDir,
      w,
      {
        client: ahead.client,
        ...(mappings && { mappings }),
        walks: ahead.walks,
        onResolved: (resolved) => (svc = resolved),
        signal,
        ...(onProgress && { onProgress }),
      },
      { ...AHEAD_OPTIONS, rememberMappings: true },
    );
  } catch (e) {
    if (signal.aborted) throw e;
    return { report: w.report, codes: { checked: false, reason: uncheckedReason(e) } };
  }
  // The walks are over (the plan stopped them); what a second plan takes of them is kept (resolvedWalks).
  ahead.walks = resolvedWalks(ahead.walks);
  if (svc) ahead.resolved = { svc, mappings: JSON.stringify(mappings ?? null) };
  try {
    ahead.planned = { ...job, index: await planLines(job), adopted: false };
  } catch {
    await discardJob(jobsDir, job.jobId); // an incomplete file: the dry run plans again
  }
  const unknown = job.plan.unknownCodes ?? [];
  return { report: withCodes(w, unknown), codes: { checked: true, unknown: unknown.length } };
}

export class ImportSessions {
  private readonly sessions = new Map<string, ImportSession>();
  /** work in flight (reading or planning), by fileId or importId, so it can be cancelled */
  private readonly inFlight = new Map<string, AbortController>();

  get(importId: string): ImportSession {
    const s = this.sessions.get(importId);
    if (!s) throw new AppError('not_found', 'This workbook is no longer open for import. Choose it again.');
    s.lastUsed = Date.now();
    return s;
  }

  cancel(ref: string): boolean {
    const c = this.inFlight.get(ref);
    if (!c) return false;
    c.abort(new Error('cancelled'));
    return true;
  }

  close(importId: string): boolean {
    this.cancel(importId);
    const s = this.sessions.get(importId);
    if (s) forget(s);
    if (s && this.early?.fileIds.includes(s.fileId)) this.dropEarly();
    return this.sessions.delete(importId);
  }

  dispose(): void {
    for (const c of this.inFlight.values()) c.abort(new Error('closing'));
    this.inFlight.clear();
    this.dropEarly();
    for (const s of this.sessions.values()) forget(s);
    this.sessions.clear();
  }

  private async track<T>(ref: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.inFlight.get(ref)?.abort(new Error('superseded'));
    const c = requestsController();
    this.inFlight.set(ref, c);
    try {
      return await work(c.signal);
    } catch (e) {
      if (c.signal.aborted) throw new AppError('invalid_input', 'Stopped on request.');
      throw e;
    } finally {
      if (this.inFlight.get(ref) === c) this.inFlight.delete(ref);
    }
  }

  private early: EarlyWalks | null = null;

  /**
   * Start the plan's service reads for these sources (without a mapping: as a template is read) on the active
   * connection, unless they are under way already; reads started for other sources are stopped. Resolves once
   * started (or found not to be: no usable connection, sheets not known before reading).
   */
  private async startEarly(app: HostServices, fileIds: readonly string[]): Promise<void> {
    const key = earlyKey(fileIds, undefined);
    if (this.early?.key === key) {
      await this.early.ready;
      return;
    }
    this.dropEarly();
    const ready = (async (): Promise<WalksAhead | null> => {
      const conn = await connectionAhead(app);
      if (!conn) return null;
      const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
      const walks = await walksFor(
        fileIds.map((id) => app.files.path(id)),
        client,
      ).catch(() => undefined);
      if (!walks) {
        void client.close().catch(() => {});
        return null;
      }
      return { client, walks, baseUrl: conn.baseUrl, apiKey: conn.apiKey };
    })().catch(() => null);
    this.early = { key, fileIds: [...fileIds], ready };
    await ready;
  }

  /** Stop the reads started early (once they are started, if they are still being started). */
  private dropEarly(): void {
    const e = this.early;
    this.early = null;
    if (e) void e.ready.then(stopAhead);
  }

  /** The reads started early, when they are for these sources, mapping and connection; else they are stopped. */
  private async takeEarly(key: string, conn: Connection | undefined): Promise<WalksAhead | null> {
    const e = this.early;
    this.early = null;
    if (!e) return null;
    const a = await e.ready;
    if (a && e.key === key && conn && a.baseUrl === conn.baseUrl && a.apiKey === conn.apiKey) return a;
    stopAhead(a);
    return null;
  }

  /**
   * The Columns step: the source's header row, columns with samples and suggested fields, and a mapping saved
   * with the active profile that fits the headers (workbook/column-mapping/columns.ts). Reads the first rows only.
   * The dry run's service reads start beside it, from the sheet lists (reads only; `import.validate` uses them).
   */
  async columns(
    app: HostServices,
    fileIds: readonly string[],
    chosen: Partial<Record<string, DataSheetName>> = {},
  ): Promise<ColumnsView> {
    const early = this.startEarly(app, fileIds);
    let peeked;
    try {
      peeked = await peekSources(app, fileIds);
    } catch (e) {
      await early;
      this.dropEarly();
      throw new AppError('invalid_input', e instanceof Error ? e.message : String(e));
    }
    await early;
    const profileId = app.settings.snapshot().activeProfileId;
    const saved = app.settings.columnMappingsOf(profileId);
    // The service's codes only when the step will be shown: a template read as it is, or a saved mapping that
    // fits, waits for no request.
    const first = columnsView(peeked, saved, {}, chosen);
    if (!first.needed || first.saved) return first;
    return columnsView(peeked, saved, await this.knownCodes(app), chosen);
  }

  private codes: { key: string; at: number; codes: KnownCodes } | null = null;

  /**
   * The active connection's codes for suggestions by values (app/known-codes.ts), kept for CODES_TTL_MS; none
   * when there is no usable connection (the suggestions then use the headers and the drop's own files).
   */
  private async knownCodes(app: HostServices): Promise<KnownCodes> {
    let conn;
    try {
      conn = await activeConnection(app);
    } catch {
      return {};
    }
    const key = `${conn.profileId}\n${conn.baseUrl}`;
    if (this.codes && this.codes.key === key && Date.now() - this.codes.at < CODES_TTL_MS) return this.codes.codes;
    const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
    try {
      const { codes } = await serviceCodes(client);
      this.codes = { key, at: Date.now(), codes };
      return codes;
    } finally {
      await client.close();
    }
  }

  /** The first rows as the reader will read them with a mapping (workbook/column-mapping/columns.ts previewMapping). */
  async columnsPreview(
    app: HostServices,
    fileIds: readonly string[],
    mapping: ColumnMapping,
  ): Promise<MappedPreview[]> {
    try {
      return previewMapping(await peekSources(app, fileIds), mapping);
    } catch (e) {
      throw new AppError('invalid_input', e instanceof Error ? e.message : String(e));
    }
  }

  /**
   * Read and check a workbook (or CSV source, through a column mapping); nothing is sent to the service. With
   * `checkCodes`, its codes are checked against the active connection in the same pass (reads only: app/codes.ts),
   * every unknown one an error at its cell; without a usable connection the view says why they were not.
   */
  async validate(
    app: HostServices,
    jobsDir: string,
    fileIds: readonly string[],
    mapping?: ColumnMapping,
    checkCodes = false,
  ): Promise<ImportValidation> {
    const fileId = fileIds[0];
    const paths = fileIds.map((id) => app.files.path(id));
    const infos = fileIds.map((id) => app.files.info(id));
    // The workbook among the sources (its copy makes the job's results workbook), else the first source.
    const wb = infos.findIndex((i) => !isTextSource(i.name));
    const inputPath = paths[Math.max(0, wb)];
    // One name for the import: the file's, or the files' joined (shown in the plan, the job and its results).
    const info = { name: infos.map((i) => i.name).join(' + '), size: infos.reduce((n, i) => n + i.size, 0) };
    if (new Set(infos.map((i) => i.name)).size < infos.length)
      throw new AppError('invalid_input', 'Two of the chosen files have the same name: rename one of them.');
    return this.track(fileId, async (signal) => {
      const throttle = new Throttle();
      const progress = (phase: ImportPhase, done: number, total: number | null, force = false) => {
        if (!throttle.pass(force)) return;
        app.emit('import.progress', { ref: fileId, phase, done, total });
      };
      // The CLI's reading and checking of sources (app/validate.ts): .xlsx or .csv, with the column mapping when
      // there is one, under the name the user knows (an uploaded copy is stored under a random name). With an
      // active connection the dry run's service reads run beside it, as the CLI's plan and import do (reads only).
      // Reads started at the Columns step for the same sources and mapping are used.
      const conn = await connectionAhead(app);
      const early = await this.takeEarly(earlyKey(fileIds, mapping), conn);
      // Started before this call, they stop with it as its own would.
      if (early) signal.addEventListener('abort', () => early.walks.cancel(), { once: true });
      const client = early?.client ?? (conn && createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey }));
      let checked;
      try {
        checked = await readWhileWalking(
          paths,
          client,
          {
            ...(mapping && { mapping }),
            fileName: info.name,
            signal,
            onRead: (p) => progress(p.phase, p.rows, p.totalRows),
            onValidate: (p) => progress('validating', p.rows, p.totalRows),
          },
          early?.walks,
        );
      } catch (e) {
        void client?.close().catch(() => {});
        throw e;
      }
      const { parsed, report, walks } = checked;
      let ahead: WalksAhead | null =
        conn && client && walks ? { client, walks, baseUrl: conn.baseUrl, apiKey: conn.apiKey } : null;
      if (!ahead) void client?.close().catch(() => {});
      const rows = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
      progress('validating', rows, rows, true);
      // The report the user sees: with the unknown codes when checked. The session keeps the workbook's own
      // report for the dry run (which resolves the codes again, and blocks their rows).
      let shown = report;
      let codes: CodesChecked | undefined;
      if (checkCodes) {
        progress('resolving', 0, 1, true);
        if (ahead && conn) {
          // The dry run planned with the walks beside the read: its unknown codes are the report's.
          const mappings = savedMappings(app.settings, conn.profileId);
          let r;
          try {
            r = await planAhead(jobsDir, { parsed, report }, ahead, mappings, signal, (p) =>
              progress(p.phase, p.done, p.total),
            );
          } catch (e) {
            stopAhead(ahead); // stopped on request: its reads and client go with it
            throw e;
          }
          ({ report: shown, codes } = r);
          if (!r.codes.checked) {
            stopAhead(ahead);
            ahead = null;
          }
        } else ({ report: shown, codes } = await codesOnConnection(app, { parsed, report }, signal));
        progress('resolving', 1, 1, true);
      }
      const importId = randomUUID();
      // A CSV source's sheet is named after its file (the name the user chose, kept by files.ts).
      const csvSources = csvSourcesOf(parsed, mapping, (name) => {
        const i = infos.findIndex((x, k) => x.name === name || path.basename(paths[k]) === name);
        return i < 0 ? undefined : paths[i];
      });
      this.sessions.set(importId, {
        importId,
        fileId,
        fileName: info.name,
        fileSize: info.size,
        inputPath,
        csvSources,
        workbookName: wb >= 0 && csvSources.length > 0 ? infos[wb].name : null,
        parsed,
        // Every distinct code the workbook refers to (report.references, ~4 MB at 130,000 rows) is read by
        // nothing the session does with the report (the dry run, the mappings it remembers): not kept.
        report: { ...report, references: {} },
        rowOf: rowLookup(parsed),
        plan: null,
        planned: null,
        planInfo: null,
        filterCache: null,
        ahead,
        lastUsed: Date.now(),
      });
      this.evict();
      const blocked = new Map(shown.sheets.map((s) => [s.name, s.blockedRows.length]));
      return {
        importId,
        file: { name: info.name, size: info.size },
        readable: parsed.readable,
        sheets: parsed.sheets.map((s) => ({
          name: s.name,
          // several sources of one sheet: all their names (MAT_2025-10.csv + MAT_2025-11.csv)
          sheetName: partsOf(s)
            .map((p) => p.sheetName)
            .join(' + '),
          rows: s.rows.length,
          blockedRows: blocked.get(s.name) ?? 0,
          ...(s.unreadRows !== undefined && { unreadRows: s.unreadRows }),
          ...(s.ignoredColumns && { ignoredColumns: s.ignoredColumns }),
        })),
        ignoredSheets: parsed.ignoredSheets,
        errors: shown.errors,
        warnings: shown.warnings,
        issues: shown.issues.map((i) => ({
          severity: i.severity,
          code: i.code,
          sheet: i.sheet,
          cell: i.cell,
          row: i.row,
          field: i.field,
          message: i.message,
          ...(i.params && { params: i.params }),
        })),
        rows,
        ms: Math.round(parsed.stats.ms),
        ...(codes && {
          codes: codes.checked ? { checked: true, unknown: codes.unknown } : { checked: false, reason: codes.reason },
        }),
      };
    });
  }

  private evict(): void {
    if (this.sessions.size <= MAX_SESSIONS) return;
    const oldest = [...this.sessions.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const s of oldest.slice(0, this.sessions.size - MAX_SESSIONS)) {
      forget(s);
      this.sessions.delete(s.importId);
    }
  }

  /** The dry run against the connection: reads only. With a previous job, only its rows that did not succeed. */
  async plan(
    app: HostServices,
    jobsDir: string,
    importId: string,
    conn: Connection & { profileName: string },
    o: PlanOptions,
  ): Promise<PlanOverview> {
    const s = this.get(importId);
    if (!s.parsed.readable)
      throw new AppError(
        'invalid_input',
        'The workbook could not be read, so there is nothing to compare. Fix the file and choose it again.',
      );
    return this.track(importId, async (signal) => {
      // The reads started while the workbook was read, when they were on this connection; else new ones.
      // With the codes pass's index, when the profile's mappings are still those it used.
      const mappings = savedMappings(app.settings, conn.profileId);
      const ahead =
        s.ahead &&
        s.ahead.baseUrl === conn.baseUrl &&
        s.ahead.apiKey === conn.apiKey &&
        (!s.ahead.resolved || s.ahead.resolved.mappings === JSON.stringify(mappings ?? null))
          ? s.ahead
          : null;
      if (ahead) s.ahead = null;
      else dropAhead(s);
      // The check's plan, when the options are its own and it was made into these jobs.
      const made = ahead?.planned;
      if (ahead && made) {
        ahead.planned = undefined;
        if (isDefaultPlan(o) && made.jobsDir === jobsDir) {
          stopAhead(ahead);
          return this.show(s, made, conn, o);
        }
        void discardPlanned(made).catch(() => {});
      }
      const client = ahead?.client ?? createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
      const stopWalks = () => ahead?.walks.cancel();
      signal.addEventListener('abort', stopWalks, { once: true });
      try {
        const throttle = new Throttle();
        const services: PlanServices = {
          client,
          ...(mappings ? { mappings } : {}),
          ...(ahead && { walks: ahead.walks }),
          ...(ahead?.resolved && { resolved: ahead.resolved.svc }),
          signal,
          onProgress: (p) => {
            if (!throttle.pass(p.done === p.total)) return;
            app.emit('import.progress', { ref: importId, phase: p.phase, done: p.done, total: p.total });
          },
        };
        // The app remembers the workbook's code mappings in the profile once the job completed.
        const job = await planJob(jobsDir, s, services, { ...o, rememberMappings: true });
        let index;
        try {
          index = await planLines(job);
        } catch (e) {
          await discardJob(jobsDir, job.jobId);
          throw e;
        }
        return this.show(s, { ...job, index, adopted: false }, conn, o);
      } finally {
        signal.removeEventListener('abort', stopWalks);
        await client.close();
      }
    });
  }

  /** The session shows the dry run `planned` (made on `conn` with the options `o`): the one before is forgotten. */
  private show(
    s: ImportSession,
    planned: PlannedFolder,
    conn: Connection & { profileName: string },
    o: PlanOptions,
  ): PlanOverview {
    forget(s);
    s.plan = planned.plan;
    s.planned = planned;
    s.planInfo = {
      profileId: conn.profileId,
      profileName: conn.profileName,
      createOnly: o.createOnly,
      onlyFailedOf: o.previous?.jobId ?? null,
      excluded: planned.excluded,
    };
    return overview(s);
  }

  /**
   * Positions of the plan's entries that pass a filter, in plan order: one pass over the dry run's file (the
   * last filter's positions are cached while the user scrolls; no filter needs no pass).
   */
  async filtered(s: ImportSession, filter: PlanRowFilter): Promise<number[]> {
    const planned = s.planned;
    if (!s.plan || !planned) throw new AppError('invalid_input', 'Make the dry run first.');
    const key = JSON.stringify([filter.sheet ?? '', filter.action ?? '', filter.search?.trim().toLowerCase() ?? '']);
    if (s.filterCache?.key === key) return s.filterCache.indices;
    const indices = await positionsPassing(planned.index, planEntryFilter(filter));
    // A new dry run while the file was read: its own filter pass counts, not this one.
    if (s.planned === planned) s.filterCache = { key, indices };
    return indices;
  }

  /** `import.planRows`: a page of the dry run's rows that pass a filter, read back from its file. */
  async rows(
    importId: string,
    filter: PlanRowFilter,
    offset: number,
    limit: number,
  ): Promise<{ total: number; offset: number; rows: PlanRowView[] }> {
    const s = this.get(importId);
    const indices = await this.filtered(s, filter);
    const { plan, planned } = s;
    if (!plan || !planned) throw new AppError('invalid_input', 'Make the dry run first.');
    const at = page(indices, offset, limit, (i) => i);
    const rows: PlanRowView[] = [];
    for (const i of at.rows) rows.push(planRowView(await planned.index.entry(i), s.rowOf, plan));
    return { ...at, rows };
  }
}

export function overview(s: ImportSession): PlanOverview {
  const plan = s.plan;
  const info = s.planInfo;
  if (!plan || !info) throw new AppError('invalid_input', 'Make the dry run first.');
  const a = plan.summary.byAction;
  return {
    importId: s.importId,
    file: s.fileName,
    createOnly: info.createOnly,
    onlyFailedOf: info.onlyFailedOf,
    excluded: info.excluded,
    profileName: info.profileName,
    baseUrl: plan.baseUrl,
    maskedKey: plan.maskedKey,
    summary: plan.summary,
    writes: (a.create ?? 0) + (a.update ?? 0) + (a.replace ?? 0) + (a.delete ?? 0),
    blocked: blockedCount(plan),
    preflight: {
      ok: plan.preflight.ok,
      scopes: plan.preflight.scopes,
      problems: plan.preflight.problems.map(problemView),
      warnings: plan.preflight.warnings,
    },
    requests: plan.requests,
    mirror: (plan.mirror ?? []).map((m) => ({
      sheet: m.sheet,
      managed: m.managed,
      deletes: m.deletes,
      cap: m.cap,
      overCap: m.overCap,
    })),
    notManaged: plan.notManaged?.length ?? 0,
  };
}
