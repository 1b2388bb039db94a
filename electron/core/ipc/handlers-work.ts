/**
 * Handlers of the Import, Jobs, Export and LCA procedures (contract-work.ts), spread into the one handler table
 * of handlers.ts. They work on the active connection profile; the key is resolved here on the main side and
 * never leaves it.
 */
import { copyFile } from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import { createApiClient } from '../api/index.js';
import { collectExport, writeExportWorkbook } from '../export/index.js';
import { csvResultBase, keptCsvSources, keptWorkbookName, writeCsvSourceResults, type CsvSource } from '../jobs/csv-sources.js';
import { jobDir, readMeta } from '../jobs/job-store.js';
import { writeFailedRowsWorkbook, writeResultsWorkbook } from '../jobs/results.js';
import { lcaWorkbookBuffer } from '../lca/export.js';
import { SANDBOX_PROFILE_ID } from '../settings/settings.js';
import { isTextSource } from '../workbook/sources/index.js';
import { HIGH_CONFIDENCE, mappingToStore } from '../workbook/mapping/columns.js';
import { parseColumnMapping } from '../workbook/mapping/schema.js';
import { countMappings, mappingsFromWorkbook, mergeProfileMappings } from '../settings/mappings.js';
import type { HandlerTable } from './handlers.js';
import { CSV_MIME } from './downloads.js';
import { AppError } from './errors.js';
import { overview } from './import-session.js';
import { resolveConnection, SANDBOX_PROFILE_NAME, type Connection } from './profiles.js';
import type { AppServices } from './services.js';
import { jobRowView, page, planRowView, filterJobEntries, undoPlanView } from './work-views.js';
import { workOf } from './work.js';
import type { workProcedures } from './contract-work.js';

type WorkName = keyof typeof workProcedures;
export type WorkHandlers = Pick<HandlerTable, WorkName>;

function profileNameOf(app: AppServices, profileId: string): string {
  return profileId === SANDBOX_PROFILE_ID
    ? SANDBOX_PROFILE_NAME
    : (app.settings.snapshot().profiles.find((p) => p.id === profileId)?.name ?? profileId);
}

async function activeConnection(app: AppServices): Promise<Connection & { profileName: string }> {
  const conn = await resolveConnection(app);
  return { ...conn, profileName: profileNameOf(app, conn.profileId) };
}

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

function baseName(file: string): string {
  return path.basename(file).replace(/\.(xlsx|xlsm)$/i, '') || 'workbook';
}

/** The workbook a job was made from: its copy in the job folder, else the path the CLI recorded. */
async function jobInput(app: AppServices, jobId: string, source?: string): Promise<{ input: string; file: string }> {
  const w = workOf(app);
  if (w.jobs.isRunning(jobId))
    throw new AppError('invalid_input', 'The job is still running. Wait until it stops, or pause it.');
  let meta;
  try {
    meta = await readMeta(w.jobs.jobsDir, jobId);
  } catch {
    throw new AppError('not_found', `There is no job ${jobId} on this computer.`);
  }
  const input = w.jobs.inputPath(jobId) ?? meta.inputPath;
  if (!input || !fs.existsSync(input)) {
    throw new AppError(
      'not_found',
      'The workbook this job was made from is no longer there, so no results workbook can be made. The outcomes are still listed here.',
    );
  }
  // the workbook among several sources is named by `source` (meta.file names them all)
  return { input, file: source ?? meta.file };
}

/**
 * The CSV source a job kept in its folder (jobs/csv-sources.ts), or undefined for a job of a workbook. A job of
 * several CSV sources makes one file per source: `source` names it (JobView.csvSources).
 */
async function jobCsvSource(
  app: AppServices,
  jobId: string,
  source: string | undefined,
): Promise<(CsvSource & { file: string }) | undefined> {
  const w = workOf(app);
  if (w.jobs.isRunning(jobId))
    throw new AppError('invalid_input', 'The job is still running. Wait until it stops, or pause it.');
  const dir = jobDir(w.jobs.jobsDir, jobId);
  const kept = await keptCsvSources(dir);
  if (kept.length === 0) return undefined;
  // a workbook among the sources (mixed): its results are a workbook
  if (source !== undefined && source === (await keptWorkbookName(dir))) return undefined;
  const names = kept.map((k) => k.file).join(', ');
  if (source === undefined && kept.length > 1)
    throw new AppError(
      'invalid_input',
      `This job read ${kept.length} CSV files (${names}): say which one's results to make.`,
    );
  const k = source === undefined ? kept[0] : kept.find((x) => x.file === source);
  if (!k) throw new AppError('not_found', `This job read no CSV file named ${source} (it read ${names}).`);
  if (!fs.existsSync(k.path))
    throw new AppError('not_found', `The copy of ${k.file} in the job's folder is gone: no results file can be made.`);
  return k;
}

/**
 * The core (workbook, import engine, LCA, export) says what went wrong in words with a plain `Error` (a workbook
 * that cannot be read, a key of another manufacturer, a job that cannot be resumed): pass those words on.
 * Anything else (a bug: TypeError and the like) stays `internal`, its detail in the log only.
 */
export function inWords(e: unknown): unknown {
  if (e instanceof Error && Object.getPrototypeOf(e) === Error.prototype && e.message.trim() !== '') {
    return new AppError('invalid_input', e.message.split('\n')[0].slice(0, 500));
  }
  return e;
}

function withWords(table: WorkHandlers): WorkHandlers {
  const out: Record<string, unknown> = {};
  for (const [name, h] of Object.entries(table) as [string, (i: unknown, a: AppServices) => Promise<unknown>][]) {
    out[name] = async (input: unknown, app: AppServices) => {
      try {
        return await h(input, app);
      } catch (e) {
        throw inWords(e);
      }
    };
  }
  return out as WorkHandlers;
}

const handlers: WorkHandlers = {
  'import.validate': async (input, app) =>
    workOf(app).imports.validate(app, [input.fileId, ...(input.moreFileIds ?? [])], input.mapping),

  'import.columns': async (input, app) => ({
    ...(await workOf(app).imports.columns(app, [input.fileId, ...(input.moreFileIds ?? [])])),
    highConfidence: HIGH_CONFIDENCE,
  }),

  'import.columnsPreview': async (input, app) => ({
    sources: await workOf(app).imports.columnsPreview(app, [input.fileId, ...(input.moreFileIds ?? [])], input.mapping),
  }),

  'mappings.list': async (_input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    const saved = app.settings.columnMappingsOf(profileId);
    return {
      profileName: profileNameOf(app, profileId),
      mappings: Object.entries(saved).map(([name, doc]) => {
        const r = parseColumnMapping(doc);
        return { name, sheets: r.ok ? Object.keys(r.mapping.sheets) : [], ok: r.ok };
      }),
    };
  },

  'mappings.save': async (input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    app.settings.setColumnMapping(profileId, input.name, mappingToStore(input.mapping, input.name));
    return { name: input.name, profileName: profileNameOf(app, profileId) };
  },

  'import.plan': async (input, app) => {
    const w = workOf(app);
    const conn = await activeConnection(app);
    let previous;
    if (input.onlyFailedOf) {
      const prev = await w.jobs.load(input.onlyFailedOf);
      previous = { jobId: input.onlyFailedOf, plan: prev.plan, result: prev.result };
    }
    return w.imports.plan(app, input.importId, conn, {
      createOnly: input.createOnly,
      previous,
      mirror: input.mirror,
      ...(input.maxDeletes !== undefined ? { maxDeletes: input.maxDeletes } : {}),
    });
  },

  'import.planRows': async (input, app) => {
    const imports = workOf(app).imports;
    const s = imports.get(input.importId);
    const indices = imports.filtered(s, input.filter);
    const plan = s.plan!;
    return page(indices, input.offset, input.limit, (i) => planRowView(plan.entries[i], s.rowOf, plan));
  },

  'import.run': async (input, app) => {
    const w = workOf(app);
    const s = w.imports.get(input.importId);
    if (!s.plan || !s.planInfo) throw new AppError('invalid_input', 'Make the dry run first.');
    const active = app.settings.snapshot().activeProfileId;
    if (active !== s.planInfo.profileId) {
      throw new AppError(
        'invalid_input',
        `The dry run was made on the connection “${s.planInfo.profileName}”, which is not the active one any more. Make the dry run again.`,
      );
    }
    const ov = overview(s);
    if (ov.blocked > 0 && !input.skipBlocked) {
      throw new AppError(
        'invalid_input',
        `${ov.blocked} row(s) are blocked. Fix them, or confirm that the rest is imported without them.`,
      );
    }
    const conn = await resolveConnection(app, s.planInfo.profileId);
    // Mapping memory: the mapping rows that passed validation are merged into the profile once the import completed.
    const remembered = mappingsFromWorkbook(s.parsed, s.report).mappings;
    const count = countMappings(remembered);
    const onCompleted =
      count.plants + count.materials > 0
        ? () => {
            const r = mergeProfileMappings(app.settings, conn.profileId, remembered);
            app.log.info(
              { profileId: conn.profileId, added: r.added, changed: r.changed },
              'remembered the workbook mappings in the profile',
            );
          }
        : undefined;
    const jobId = await w.jobs.start(s.plan, {
      conn,
      inputPath: s.inputPath,
      csvSources: s.csvSources,
      ...(s.workbookName && { workbookName: s.workbookName }),
      ...(onCompleted ? { onCompleted } : {}),
    });
    return { jobId };
  },

  'import.cancel': async (input, app) => {
    const imports = workOf(app).imports;
    let accepted = false;
    if (input.importId) accepted = imports.cancel(input.importId) || accepted;
    if (input.fileId) accepted = imports.cancel(input.fileId) || accepted;
    return { accepted };
  },

  'import.close': async (input, app) => ({ accepted: workOf(app).imports.close(input.importId) }),

  'jobs.list': async (_input, app) => ({ jobs: await workOf(app).jobs.list() }),

  'jobs.get': async (input, app) => workOf(app).jobs.view(input.jobId),

  'jobs.rows': async (input, app) => {
    const loaded = await workOf(app).jobs.load(input.jobId);
    const indices = filterJobEntries(loaded.index, input.filter);
    return page(indices, input.offset, input.limit, (i) => {
      const e = loaded.plan.entries[i];
      return jobRowView(e, loaded.index.outcomes.get(e.key) ?? { key: e.key, outcome: 'pending' });
    });
  },

  'jobs.pause': async (input, app) => ({ accepted: workOf(app).jobs.pause(input.jobId) }),
  'jobs.cancel': async (input, app) => ({ accepted: workOf(app).jobs.cancel(input.jobId) }),

  'jobs.resume': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await workOf(app).jobs.resume(input.jobId, conn) };
  },

  'jobs.undoPlan': async (input, app) => {
    const conn = await resolveConnection(app);
    return undoPlanView(input.jobId, await workOf(app).jobs.undoPlan(input.jobId, conn));
  },

  'jobs.undo': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await workOf(app).jobs.undo(input.jobId, conn, input.skipBlocked) };
  },

  'jobs.resultsWorkbook': async (input, app) => {
    const w = workOf(app);
    const csv = await jobCsvSource(app, input.jobId, input.source);
    if (csv) {
      const { plan, result } = await w.jobs.load(input.jobId);
      const name = `${csvResultBase(csv.file)}.results.csv`;
      const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), name);
      await writeCsvSourceResults(csv, plan, result, { results: out });
      return w.downloads.register(out, name, CSV_MIME);
    }
    const { input: src, file } = await jobInput(app, input.jobId, input.source);
    if (isTextSource(file))
      throw new AppError(
        'not_found',
        `${file} is a CSV source this job did not keep a copy of (it was started by an older version): its results are listed here row by row.`,
      );
    const { plan, result } = await w.jobs.load(input.jobId);
    const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), 'results.xlsx');
    await writeResultsWorkbook(src, plan, result, out);
    return w.downloads.register(out, `${baseName(file)}-results.xlsx`);
  },

  'jobs.failedWorkbook': async (input, app) => {
    const w = workOf(app);
    const csv = await jobCsvSource(app, input.jobId, input.source);
    if (csv) {
      const { plan, result } = await w.jobs.load(input.jobId);
      const name = `${csvResultBase(csv.file)}.failed.csv`;
      const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), name);
      const { failedRows } = await writeCsvSourceResults(csv, plan, result, { failed: out });
      return { ...w.downloads.register(out, name, CSV_MIME), rows: failedRows };
    }
    const { input: src, file } = await jobInput(app, input.jobId, input.source);
    if (isTextSource(file))
      throw new AppError(
        'not_found',
        `${file} is a CSV source this job did not keep a copy of (it was started by an older version): its rows are listed here.`,
      );
    const { plan, result } = await w.jobs.load(input.jobId);
    const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), 'failed-rows.xlsx');
    const { rows } = await writeFailedRowsWorkbook(src, plan, result, out);
    return { ...w.downloads.register(out, `${baseName(file)}-failed-rows.xlsx`), rows };
  },

  'downloads.save': async (input, app) => {
    const d = workOf(app).downloads.get(input.downloadId);
    if (!app.dialogs?.saveFile) return { supported: false, saved: false, fileName: null };
    const target = await app.dialogs.saveFile(d.fileName);
    if (!target) return { supported: true, saved: false, fileName: null };
    await copyFile(d.path, target);
    return { supported: true, saved: true, fileName: path.basename(target) };
  },

  'downloads.open': async (input, app) => {
    const d = workOf(app).downloads.get(input.downloadId);
    if (!app.dialogs?.openPath) return { supported: false, opened: false };
    return { supported: true, opened: await app.dialogs.openPath(d.path) };
  },

  'export.run': async (input, app) => {
    const w = workOf(app);
    const conn = await activeConnection(app);
    const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
    try {
      const ref = input.ref ?? input.collection;
      let last = 0;
      const data = await collectExport(client, input.collection, {
        onProgress: (p) => {
          const now = Date.now();
          if (now - last < 100) return;
          last = now;
          app.emit('export.progress', { ref, collection: p.collection, done: p.done });
        },
      });
      const file = w.downloads.tempPath('.xlsx');
      await writeExportWorkbook(data, file);
      const download = w.downloads.register(file, `supply-loader-export-${input.collection}-${stamp()}.xlsx`);
      return {
        download,
        sheets: data.sheets.map((s) => ({ sheet: s.name, rows: s.rows.length })),
        warnings: data.warnings,
        requests: data.requests,
      };
    } finally {
      await client.close();
    }
  },

  'lca.options': async (_input, app) => workOf(app).lca.options(await resolveConnection(app)),

  'lca.select': async (input, app) => workOf(app).lca.select(await resolveConnection(app), input.by, input.codes),

  'lca.run': async (input, app) => ({
    runId: workOf(app).lca.start(await resolveConnection(app), input.selectionId, input.recompute),
  }),

  'lca.report': async (input, app) => workOf(app).lca.view(input.runId),

  'lca.analysis': async (input, app) => workOf(app).lca.analysis(input.runId, input),

  'lca.enterProduction': async (input, app) => ({
    runId: await workOf(app).lca.enterProduction(
      await resolveConnection(app),
      input.runId,
      input.instanceId,
      input.year,
      input.quantity,
    ),
  }),

  'lca.cancel': async (input, app) => ({ accepted: workOf(app).lca.cancel(input.runId) }),

  'lca.export': async (input, app) => {
    const w = workOf(app);
    const report = w.lca.report(input.runId);
    const { buffer } = await lcaWorkbookBuffer(report);
    return w.downloads.registerBytes(buffer, `lca-results-${stamp()}.xlsx`);
  },
};

export const workHandlers: WorkHandlers = withWords(handlers);
