/**
 * Handlers of the Import, Jobs, Export and LCA procedures (contract-work.ts), spread into the one handler table
 * of handlers.ts. They work on the active connection profile; the key is resolved here on the main side and
 * never leaves it.
 */
import { copyFile } from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import { exportToWorkbook } from '../app/export.js';
import { csvResultBase, keptCsvSources, keptWorkbookName, writeCsvSourceResults, type CsvSource } from '../jobs/csv-sources.js';
import { jobDir, readMeta } from '../jobs/job-store.js';
import { writeFailedRowsWorkbook, writeResultsWorkbook } from '../jobs/results.js';
import { lcaWorkbookBuffer } from '../lca/workbook/index.js';
import { isTextSource } from '../workbook/sources/index.js';
import { HIGH_CONFIDENCE } from '../workbook/mapping/columns.js';
import type { HandlerTable } from './handlers.js';
import { CSV_MIME } from '../app/downloads.js';
import { AppError } from './errors.js';
import { planSession, runSession } from '../app/import-session.js';
import { listColumnMappings, saveColumnMapping } from '../app/mappings.js';
import { activeConnection, profileNameOf, resolveConnection, withClient } from '../app/profiles.js';
import type { AppServices } from './services.js';
import { jobRowView, page, filterJobEntries, undoPlanView } from '../app/work-views.js';
import type { workProcedures } from './contract-work.js';
import { Throttle } from '../throttle.js';

type WorkName = keyof typeof workProcedures;
export type WorkHandlers = Pick<HandlerTable, WorkName>;

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

function baseName(file: string): string {
  return path.basename(file).replace(/\.(xlsx|xlsm)$/i, '') || 'workbook';
}

/** The workbook a job was made from: its copy in the job folder, else the path the CLI recorded. */
async function jobInput(app: AppServices, jobId: string, source?: string): Promise<{ input: string; file: string }> {
  const w = app.work;
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
  const w = app.work;
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
    app.work.imports.validate(app, [input.fileId, ...(input.moreFileIds ?? [])], input.mapping),

  'import.columns': async (input, app) => ({
    ...(await app.work.imports.columns(app, [input.fileId, ...(input.moreFileIds ?? [])])),
    highConfidence: HIGH_CONFIDENCE,
  }),

  'import.columnsPreview': async (input, app) => ({
    sources: await app.work.imports.columnsPreview(app, [input.fileId, ...(input.moreFileIds ?? [])], input.mapping),
  }),

  'mappings.list': async (_input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    return { profileName: profileNameOf(app, profileId), mappings: listColumnMappings(app.settings, profileId) };
  },

  'mappings.save': async (input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    saveColumnMapping(app.settings, profileId, input.name, input.mapping);
    return { name: input.name, profileName: profileNameOf(app, profileId) };
  },

  'import.plan': async (input, app) => planSession(app, input),

  'import.planRows': async (input, app) => app.work.imports.rows(input.importId, input.filter, input.offset, input.limit),

  'import.run': async (input, app) => ({ jobId: await runSession(app, input.importId, input.skipBlocked) }),

  'import.cancel': async (input, app) => {
    const imports = app.work.imports;
    let accepted = false;
    if (input.importId) accepted = imports.cancel(input.importId) || accepted;
    if (input.fileId) accepted = imports.cancel(input.fileId) || accepted;
    return { accepted };
  },

  'import.close': async (input, app) => ({ accepted: app.work.imports.close(input.importId) }),

  'jobs.list': async (_input, app) => ({ jobs: await app.work.jobs.list() }),

  'jobs.get': async (input, app) => app.work.jobs.view(input.jobId),

  'jobs.rows': async (input, app) => {
    const loaded = await app.work.jobs.load(input.jobId);
    const indices = filterJobEntries(loaded.index, input.filter);
    return page(indices, input.offset, input.limit, (i) => {
      const e = loaded.plan.entries[i];
      return jobRowView(e, loaded.index.outcomes.get(e.key) ?? { key: e.key, outcome: 'pending' }, loaded.plan);
    });
  },

  'jobs.pause': async (input, app) => ({ accepted: app.work.jobs.pause(input.jobId) }),
  'jobs.cancel': async (input, app) => ({ accepted: app.work.jobs.cancel(input.jobId) }),

  'jobs.resume': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.work.jobs.resume(input.jobId, conn) };
  },

  'jobs.undoPlan': async (input, app) => {
    const conn = await resolveConnection(app);
    return undoPlanView(input.jobId, await app.work.jobs.undoPlan(input.jobId, conn));
  },

  'jobs.undo': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.work.jobs.undo(input.jobId, conn, input.skipBlocked) };
  },

  'jobs.resultsWorkbook': async (input, app) => {
    const w = app.work;
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
    const w = app.work;
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
    const d = app.work.downloads.get(input.downloadId);
    if (!app.dialogs?.saveFile) return { supported: false, saved: false, fileName: null };
    const target = await app.dialogs.saveFile(d.fileName);
    if (!target) return { supported: true, saved: false, fileName: null };
    await copyFile(d.path, target);
    return { supported: true, saved: true, fileName: path.basename(target) };
  },

  'downloads.open': async (input, app) => {
    const d = app.work.downloads.get(input.downloadId);
    if (!app.dialogs?.openPath) return { supported: false, opened: false };
    return { supported: true, opened: await app.dialogs.openPath(d.path) };
  },

  'export.run': async (input, app) => {
    const w = app.work;
    const ref = input.ref ?? input.collection;
    const throttle = new Throttle();
    const file = w.downloads.tempPath('.xlsx');
    const { data } = await withClient(await activeConnection(app), (client) =>
      exportToWorkbook(client, input.collection, file, {
        onProgress: (p) => {
          if (!throttle.pass()) return;
          app.emit('export.progress', { ref, collection: p.collection, done: p.done });
        },
      }),
    );
    const download = w.downloads.register(file, `supply-loader-export-${input.collection}-${stamp()}.xlsx`);
    return {
      download,
      sheets: data.sheets.map((s) => ({ sheet: s.name, rows: s.rows.length })),
      warnings: data.warnings,
      requests: data.requests,
    };
  },

  'lca.options': async (_input, app) => app.work.lca.options(await resolveConnection(app)),

  'lca.select': async (input, app) => app.work.lca.select(await resolveConnection(app), input.by, input.codes),

  'lca.run': async (input, app) => ({
    runId: app.work.lca.start(await resolveConnection(app), input.selectionId, input.recompute),
  }),

  'lca.report': async (input, app) => app.work.lca.view(input.runId),

  'lca.analysis': async (input, app) => app.work.lca.analysis(input.runId, input),

  'lca.enterProduction': async (input, app) => ({
    runId: await app.work.lca.enterProduction(
      await resolveConnection(app),
      input.runId,
      input.instanceId,
      input.year,
      input.quantity,
    ),
  }),

  'lca.cancel': async (input, app) => ({ accepted: app.work.lca.cancel(input.runId) }),

  'lca.export': async (input, app) => {
    const w = app.work;
    const report = w.lca.report(input.runId);
    const { buffer } = await lcaWorkbookBuffer(report);
    return w.downloads.registerBytes(buffer, `lca-results-${stamp()}.xlsx`);
  },
};

export const workHandlers: WorkHandlers = withWords(handlers);
