/**
 * `supply-loader watch DIR [--mapping NAME] [--profile NAME] [--once]`: unattended runs. The watch
 * logic (inbox scan, stability, grouping, lock, state, moving drops) is `core/app/watch.ts`; this
 * command wires its `importDrop` to the code path of `supply-loader import` (importFile) and of `resume`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WatchLockedError } from '../../app/watch-state.js';
import {
  watchFolder,
  type DropImportResult,
  type DropReport,
  type ImportDrop,
  type WatchEvent,
} from '../../app/watch.js';
import { resumeImportJob } from '../../app/import-job.js';
import { writeJobResultFiles, type ResultFiles } from '../../app/import-results.js';
import { findJob } from '../../app/jobs.js';
import { impactAsked } from '../../app/lca-impact.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import { expectPositionals, flag, intOption } from '../shared/args.js';
import { connectContext, runContext, type RunContext } from '../shared/context.js';
import { CliUsageError, describeError } from '../shared/errors.js';
import { clientCap, exitCodeOf, jobProgress } from '../shared/importing.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { formatResult } from '../output/views.js';
import { importFile } from './import.js';
import { impactAfterJob } from './lca-impact.js';
import { mappingOption } from '../shared/column-mapping.js';
import type { ColumnMapping } from '../../workbook/column-mapping/schema.js';
import { isLegacySource, isTextSource } from '../../workbook/sources/index.js';

/** Test and tuning knobs (milliseconds): how long a file must stay unchanged, the poll interval, --once's wait. */
export const WATCH_TIMING_ENV = {
  stableMs: 'SUPPLY_LOADER_WATCH_STABLE_MS',
  pollMs: 'SUPPLY_LOADER_WATCH_POLL_MS',
  onceWaitMs: 'SUPPLY_LOADER_WATCH_ONCE_WAIT_MS',
} as const;

function timing(env: NodeJS.ProcessEnv): { stableMs?: number; pollMs?: number; onceWaitMs?: number } {
  const out: { stableMs?: number; pollMs?: number; onceWaitMs?: number } = {};
  for (const [k, name] of Object.entries(WATCH_TIMING_ENV) as [keyof typeof WATCH_TIMING_ENV, string][]) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^\d+$/.test(v.trim())) throw new CliUsageError(`${name} must be a whole number of milliseconds (got "${v}")`);
    out[k] = Number(v);
  }
  return out;
}

/** Why a file of a drop cannot be imported, or undefined when it can. */
function notImportable(file: string): string | undefined {
  if (path.extname(file).toLowerCase() === '.xlsx' || isLegacySource(file) || isTextSource(file)) return undefined;
  return `${path.basename(file)}: not a file the watch folder imports (an .xlsx, .xls or .ods workbook or a .csv file).`;
}

/** importDrop for the watch folder: one workbook through `import` (or its job resumed), outputs into outDir. */
function cliImportDrop(
  rc: RunContext,
  concurrency: number | undefined,
  mapping: ColumnMapping | undefined,
  lcaImpact: boolean,
): ImportDrop {
  return async (files, outDir, _signal, control): Promise<DropImportResult> => {
    let messages = '';
    const say = {
      stdout: (s: string) => {
        messages += s;
        if (!rc.json) rc.stdout(s);
      },
      stderr: (s: string) => {
        messages += s;
        if (!rc.json) rc.stderr(s);
      },
    };
    const done = (r: Omit<DropImportResult, 'messages'>): DropImportResult => ({ ...r, messages: rc.mask(messages) });
    if (files.length !== 1 && !mapping) {
      say.stderr(`a drop of ${files.length} files needs a mapping with sources; each file is imported on its own\n`);
      return done({ code: EXIT.usage, outputs: [] });
    }
    const [input] = files;
    const refused = files.map(notImportable).find((m) => m !== undefined);
    if (refused) {
      say.stderr(`${refused}\nNothing was sent.\n`);
      return done({ code: EXIT.usage, outputs: [] });
    }
    // A workbook gets <name>.results.xlsx / .failed.xlsx; CSV sources <name>.results.csv / .failed.csv each, in
    // their own layout (the folder is given, the names come from the sources); a drop mixing both gets both.
    const csv = files.filter(isTextSource);
    const base = path.basename(input).replace(/\.[^.]+$/, '');
    const outs: ResultFiles =
      csv.length === 0
        ? { report: path.join(outDir, `${base}.results.xlsx`), failed: path.join(outDir, `${base}.failed.xlsx`) }
        : { report: outDir, failed: outDir };
    const written = (f: ResultFiles) => [f.report, f.failed].filter((x): x is string => typeof x === 'string');
    // The LCA impact workbook (--lca-impact) goes with the drop's other outputs.
    const impactFile = path.join(outDir, `${base}.impact.xlsx`);
    try {
      if (control.resume && (await jobFolderExists(rc, control.jobId))) {
        // The drop's job was started by a watcher that stopped: continue it (no row is sent twice).
        say.stderr(`resuming job ${control.jobId}\n`);
        await connectContext(rc, clientCap(concurrency));
        const progress = jobProgress(rc);
        let run: IndexedJobResult;
        try {
          run = await resumeImportJob(control.jobId, {
            client: rc.client,
            jobsDir: rc.jobsDir,
            signal: rc.signal,
            onProgress: progress.onProgress,
            ...(concurrency ? { concurrency } : {}),
            completed: 'answer',
          });
        } finally {
          progress.done();
        }
        try {
          // A resumed CSV drop: the job's outcomes are in its journal; results CSVs are written by a fresh import only.
          if (csv.length > 0) say.stderr('results of a resumed CSV drop are not written; see "supply-loader jobs"\n');
          const f =
            csv.length === 0 ? await writeJobResultFiles((line) => rc.stderr(`${line}\n`), input, run, outs) : {};
          let code = exitCodeOf(run);
          // The drop's import asked for the LCA impact (or the watcher does): as a resume keeps it.
          const lca = lcaImpact || (await impactAsked(rc.jobsDir, control.jobId));
          const impact = lca && code !== EXIT.aborted ? await impactAfterJob(rc, control.jobId, impactFile, say) : null;
          if (impact && code === EXIT.ok) code = impact.code;
          say.stdout(`${(await formatResult(run)).join('\n')}\n`);
          return done({
            code,
            jobId: control.jobId,
            resumed: true,
            counts: { ...run.result.counts },
            outputs: [...written(f), ...(impact ? [impact.file] : [])],
          });
        } finally {
          await run.index.close();
        }
      }
      const r = await importFile(rc, files, {
        createOnly: false,
        skipBlocked: false,
        ...(concurrency ? { concurrency } : {}),
        ...(mapping ? { mapping } : {}),
        outs,
        out: say,
        jobId: control.jobId,
        ...(lcaImpact && { lcaImpact, impactFile }),
      });
      return done({
        code: r.code,
        ...(r.jobId ? { jobId: r.jobId } : {}),
        ...(r.result ? { counts: { ...r.result.counts } } : {}),
        outputs: [...written(r.files), ...r.workbookFiles, ...r.csvFiles, ...(r.impactFile ? [r.impactFile] : [])],
      });
    } catch (e) {
      const d = describeError(e, 'watch');
      say.stderr(`${d.message}${d.err_code && !d.message.includes(d.err_code) ? ` [${d.err_code}]` : ''}\n`);
      if (d.hint) say.stderr(`  ${d.hint}\n`);
      // An unexpected error is not retried for ever: the drop goes to failed/ with the message.
      return done({ code: d.exitCode, outputs: [], ...(d.unexpected ? { resumable: false } : {}) });
    }
  };
}

async function jobFolderExists(rc: RunContext, jobId: string): Promise<boolean> {
  try {
    await findJob(rc.jobsDir, jobId);
    return true;
  } catch {
    return false;
  }
}

function dropJson(r: DropReport): Record<string, unknown> {
  return {
    drop: r.drop,
    files: r.files,
    outcome: r.outcome,
    exit_code: r.exitCode,
    job_id: r.jobId,
    resumed: r.resumed,
    counts: r.counts,
    folder: r.folder,
    outputs: r.outputs,
  };
}

export const watchCommand: CliCommand = {
  name: 'watch',
  summary: 'Import the files dropped into DIR/inbox one drop at a time (unattended runs; --once for cron and timers)',
  usage: `supply-loader watch DIR [--once] [--profile NAME] [--mapping NAME] [--concurrency N] [--lca-impact]
  Files dropped into DIR/inbox (.xlsx, .csv) are imported one drop at a time: without --mapping each file is
  its own drop; with one, the files matching its sources (file-name globs) form one drop. A file is taken once its size and modification time have not changed
  for 2 s, or at once when a marker file <file>.ready exists (the marker moves with the drop).
  A finished drop moves to DIR/done/<time>/ (every row succeeded or was unchanged) or DIR/failed/<time>/ (rows
  failed, the workbook has errors or rows are blocked) with <name>.results.xlsx, <name>.failed.xlsx and
  <name>.messages.txt beside it. A drop stopped by Ctrl+C/SIGTERM, a refused key, the daily limit or an
  unreachable service stays in DIR/.supply-loader-watch/work/ and its job is resumed at the next start.
  --once        process the inbox (waiting up to 60 s for files still being written) and exit: for cron,
                systemd timers and the Windows Task Scheduler
  --mapping     a column mapping (FILE.json or a saved NAME): its sources group files into one drop, and it maps
                their columns as for import
  --concurrency at most N writes in flight (default 16)
  --lca-impact  import each drop as import --lca-impact: its LCA impact report <name>.impact.xlsx goes beside
                the drop's results (a resumed drop keeps what its import was asked for)
  One watcher per DIR (DIR/.supply-loader-watch/lock). Exit code: the worst of the drops (0 < 1 < 2 < 3).`,
  options: {
    once: { type: 'boolean' },
    mapping: { type: 'string' },
    concurrency: { type: 'string' },
    'lca-impact': { type: 'boolean' },
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [dirArg] = expectPositionals(positionals, ['DIR'], 'watch');
    const rc = runContext(ctx);
    const dir = path.resolve(rc.cwd, dirArg);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
      throw new CliUsageError(`the folder ${dir} does not exist`, 'watch');
    const mapping = mappingOption(rc, values, 'watch');
    // Files of one drop: those matching the mapping's sources (by file-name glob) go together.
    const sourceGlobs = mapping ? Object.values(mapping.sheets).flatMap((sh) => (sh?.source ? [sh.source] : [])) : [];
    const concurrency = intOption(values, 'concurrency', 1, 256, 'watch');
    const once = flag(values, 'once');
    const t = timing(rc.env);
    // The connection is checked at start: a wrong key or URL fails the watcher, never a drop.
    await connectContext(rc, clientCap(concurrency));

    const log = (s: string) => {
      if (!rc.json) rc.stderr(`watch: ${s}\n`);
    };
    const onEvent = (e: WatchEvent) => {
      switch (e.type) {
        case 'lock_taken_over':
          rc.stderr(`watch: notice: took over the lock of a watcher that is gone (pid ${e.pid})\n`);
          break;
        case 'watching':
          if (!once) log(`watching ${e.inbox} (Ctrl+C stops; a drop being imported stays resumable)`);
          break;
        case 'drop_start':
          log(`${e.resume ? 'continuing' : 'taking'} drop ${e.drop}: ${e.files.join(', ')} (job ${e.jobId})`);
          break;
        case 'waiting':
          log(`waiting for files still being written: ${e.files.join(', ')}`);
          break;
        case 'not_taken':
          rc.stderr(`watch: not taken (still being written after the wait): ${e.files.join(', ')}\n`);
          break;
        case 'drop_end': {
          const r = e.report;
          if (rc.json) break;
          const where = r.outcome === 'interrupted' ? `stopped, resumable (${r.folder})` : `${r.outcome}: ${r.folder}`;
          rc.stdout(`drop ${r.drop} ${where} — exit ${r.exitCode}${r.jobId ? `, job ${r.jobId}` : ''}\n`);
          break;
        }
      }
    };
    let res;
    try {
      res = await watchFolder({
        dir,
        once,
        ...t,
        signal: rc.signal,
        onEvent,
        ...(sourceGlobs.length ? { sourceGlobs } : {}),
        importDrop: cliImportDrop(rc, concurrency, mapping, flag(values, 'lca-impact')),
      });
    } catch (e) {
      if (e instanceof WatchLockedError) throw new CliUsageError(e.message, 'watch');
      throw e;
    }
    if (rc.json) {
      rc.printJson({
        ok: res.exitCode === EXIT.ok,
        exit_code: res.exitCode,
        dir,
        drops: res.drops.map(dropJson),
        not_taken: res.notTaken,
      });
    } else if (res.drops.length === 0) {
      rc.stdout(`no drop in ${path.join(dir, 'inbox')}\n`);
    }
    return res.exitCode;
  },
};
