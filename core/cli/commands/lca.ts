/**
 * `supply-loader lca`: LCA results of product instances — optionally recomputed — exported to an Excel
 * workbook (sheets results, gwp, blockers, jobs, about; docs/lca-export.md).
 *
 * Exit codes: 0 every instance has its results and no year waits for the user; 1 an instance failed (job
 * failed, request refused, unknown job status), has no results yet (idle: run with --recompute), or a past or
 * current year is blocked by missing production data; 2 usage or validation errors, unknown codes (nothing
 * sent: checked before any recompute); 3 aborted (key refused, daily limit, cancelled).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  instanceVerdicts,
  lcaInstances,
  lcaRun,
  lcaSelector,
  writeLcaResults,
  type InstanceSelector,
  type InstanceVerdict,
  type LcaExportStats,
  type LcaReport,
} from '../../app/lca.js';
import {
  instanceCodesOfWorkbook,
  productionOfWorkbook,
  writeProduction,
  type ProductionFigureRow,
  type ProductionWriteResult,
} from '../../app/lca-workbooks.js';
import { flag, intOption, str, expectPositionals } from '../shared/args.js';
import { RunContext } from '../shared/context.js';
import { CliUsageError } from '../shared/errors.js';
import { EXIT, type CliCommand, type CliContext } from '../shared/types.js';
import { IMPACT_USAGE, lcaImpactAction } from './lca-impact.js';

const NAME = 'lca';
const SELECTORS = ['instances', 'products', 'plant', 'from-workbook', 'all'] as const;

/** The selector the options name (exactly one), checked before anything is sent. */
function selectorFrom(values: Record<string, unknown>): { selector: InstanceSelector | null; workbook: string | null } {
  const given = SELECTORS.filter((s) => (s === 'all' ? flag(values, s) : str(values, s) !== undefined));
  if (given.length === 0) {
    throw new CliUsageError(
      'say which product instances: --instances A,B | --products ART1,ART2 | --plant CODE | --from-workbook FILE | --all',
      NAME,
    );
  }
  if (given.length > 1) throw new CliUsageError(`give only one of ${given.map((g) => `--${g}`).join(', ')}`, NAME);
  const which = given[0];
  if (which === 'all') return { selector: { by: 'all' }, workbook: null };
  const v = str(values, which)!;
  if (which === 'from-workbook') return { selector: null, workbook: v };
  const selector = lcaSelector(which, v.split(','));
  if (!selector) throw new CliUsageError(`--${which} needs at least one code (comma-separated)`, NAME);
  return { selector, workbook: null };
}

async function checkOutput(out: string): Promise<void> {
  if (!/\.xlsx$/i.test(out)) throw new CliUsageError(`the output file must end in .xlsx (got "${out}")`, NAME);
  const dir = path.dirname(out);
  const st = await stat(dir).catch(() => null);
  if (!st?.isDirectory()) throw new CliUsageError(`the folder of the output file does not exist: ${dir}`, NAME);
}

function exitCodeOf(report: LcaReport, v: InstanceVerdict[]): number {
  if (report.aborted) return EXIT.aborted;
  const bad = v.some((x) => x.outcome !== 'completed' || x.years_needing_data.length > 0);
  return bad ? EXIT.partial : EXIT.ok;
}

async function connected(ctx: CliContext, concurrency: number | undefined): Promise<void> {
  // Input is checked first (exit 2, nothing sent); then the connection (main.ts gives us a RunContext).
  if (ctx instanceof RunContext)
    await ctx.connect(concurrency && concurrency > 16 ? { maxConcurrency: concurrency } : {});
}

export const lcaCommand: CliCommand = {
  name: NAME,
  summary: 'LCA results of product instances (optionally recomputed) to an Excel workbook',
  usage: `supply-loader lca (--instances A,B | --products ART1,ART2 | --plant CODE | --from-workbook FILE | --all)
                   [--production FILE] [--recompute] -o results.xlsx [--concurrency N] [--breakdown] [--json]
  --instances A,B       product instances by their external_id
  --products ART1,ART2  every instance of these products (article numbers)
  --plant CODE          every instance made at this plant (plant code; several comma-separated)
  --from-workbook FILE  the instances of the product-instances sheet of an import workbook
  --all                 every product instance
  --production FILE     first write the production figures of FILE's production sheet (product_instance_external_id,
                        year, quantity) through the API; use with --recompute so the LCA uses them
  --recompute           start an LCA recompute of each instance first, then wait for it
  -o, --output FILE     the workbook to write (.xlsx); optional with --json
  --concurrency N       instances worked on at once (default 16)
  --breakdown           add the raw per-source breakdown sheet (the hotspots sheet is written whenever the key may
                        read the breakdown)
Exit codes: 0 all results there, 1 an instance failed / has no results / a past or current year lacks
production data, 2 usage error or unknown code (nothing sent), 3 aborted (key refused, daily limit, cancelled).
${IMPACT_USAGE}`,
  options: {
    instances: { type: 'string' },
    products: { type: 'string' },
    plant: { type: 'string' },
    'from-workbook': { type: 'string' },
    all: { type: 'boolean' },
    recompute: { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    concurrency: { type: 'string' },
    breakdown: { type: 'boolean' },
    production: { type: 'string' },
    'no-recompute': { type: 'boolean' },
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    if (positionals[0] === 'impact') return lcaImpactAction(values, positionals.slice(1), ctx);
    expectPositionals(positionals, [], NAME);
    if (flag(values, 'no-recompute')) throw new CliUsageError('--no-recompute belongs to "lca impact JOB_ID"', NAME);
    const cwd = ctx instanceof RunContext ? ctx.cwd : process.cwd();
    const picked = selectorFrom(values);
    const workbook = picked.workbook;
    let selector = picked.selector;
    const outArg = str(values, 'output');
    if (!outArg && !ctx.json)
      throw new CliUsageError('say where to write the workbook: -o results.xlsx (or use --json)', NAME);
    const out = outArg ? path.resolve(cwd, outArg) : null;
    if (out) await checkOutput(out);
    const concurrency = intOption(values, 'concurrency', 1, 64, NAME);
    const recompute = flag(values, 'recompute');

    if (workbook !== null) {
      const file = path.resolve(cwd, workbook);
      const { codes, problems } = await instanceCodesOfWorkbook(file, { signal: ctx.signal });
      if (problems.length)
        throw new CliUsageError(
          `${workbook}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
          NAME,
        );
      selector = { by: 'instances', externalIds: codes };
    }

    let productionRows: ProductionFigureRow[] | null = null;
    const productionFile = str(values, 'production');
    if (productionFile !== undefined) {
      const { rows, problems } = await productionOfWorkbook(path.resolve(cwd, productionFile), { signal: ctx.signal });
      if (problems.length)
        throw new CliUsageError(
          `${productionFile}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''} — nothing was written`,
          NAME,
        );
      productionRows = rows;
    }

    await connected(ctx, concurrency);
    let production: ProductionWriteResult[] = [];
    if (productionRows) production = await writeProduction(ctx.client, productionRows, { signal: ctx.signal });
    const selection = await lcaInstances(ctx.client, selector!, { signal: ctx.signal });
    if (selection.unknown.length > 0) {
      const words = { instance: 'product instance', product: 'product', plant: 'plant' } as const;
      const parts = selection.unknown.map(
        (u) => `${words[u.kind]}${u.codes.length > 1 ? 's' : ''} not found: ${u.codes.join(', ')}`,
      );
      throw new CliUsageError(`${parts.join('; ')} — nothing was recomputed or written`, NAME);
    }
    const description =
      workbook !== null
        ? `product instances of ${path.basename(workbook)} (${selection.instances.length})`
        : selection.description;

    const bar = ctx.progress(selection.instances.length, recompute ? 'LCA recompute' : 'LCA results');
    let report: LcaReport;
    try {
      report = await lcaRun(ctx.client, selection.instances, {
        recompute,
        signal: ctx.signal,
        selection: description,
        ...(concurrency !== undefined ? { concurrency } : {}),
        onBreakdownError: (reason) => ctx.stderr(`supply-loader: ${reason} No hotspots sheet.\n`),
        onEvent: (e) => {
          if (e.state === 'done' || e.state === 'failed')
            bar.tick(
              1,
              `${e.externalId ?? e.instanceId} ${e.state === 'failed' ? `failed${e.errCode ? ` (${e.errCode})` : ''}` : 'done'}`,
            );
        },
      });
    } finally {
      bar.done();
    }

    // The workbook is written even when the run stopped early: what was done is not thrown away.
    let stats: LcaExportStats | null = null;
    if (out) stats = await writeLcaResults(report, out, { breakdown: flag(values, 'breakdown') });
    const v = instanceVerdicts(report);
    const productionFailed = production.some((p) => p.outcome === 'failed');
    let code = exitCodeOf(report, v);
    if (code === EXIT.ok && productionFailed) code = EXIT.partial;

    if (ctx.json) {
      ctx.stdout(
        `${JSON.stringify(
          {
            command: NAME,
            base_url: report.base_url,
            key: report.masked_key,
            selection: report.selection,
            recompute,
            output: out,
            summary: report.summary,
            aborted: report.aborted,
            duration_ms: report.duration_ms,
            workbook: stats ? { rows: stats.rows, extra_columns: stats.extraColumns, notes: stats.notes } : null,
            instances: v,
            production: productionRows ? production : undefined,
            exit_code: code,
          },
          null,
          2,
        )}\n`,
      );
    } else {
      const s = report.summary;
      // A completed job that computed no year (every year blocked) is not a result: its own, neutral state.
      const noYear = v.filter((x) => x.outcome === 'completed' && x.years_computed === 0);
      const parts = [`${s.completed - noYear.length} completed`];
      if (noYear.length) parts.push(`${noYear.length} with no year computed`);
      if (s.idle) parts.push(`${s.idle} never computed`);
      if (s.failed) parts.push(`${s.failed} failed`);
      if (s.error) parts.push(`${s.error} with errors`);
      if (s.unknown_status) parts.push(`${s.unknown_status} with an unknown job status`);
      if (s.cancelled) parts.push(`${s.cancelled} cancelled`);
      if (s.skipped) parts.push(`${s.skipped} skipped`);
      const lines: string[] = [];
      if (productionRows) {
        const written = production.filter((p) => p.outcome === 'written');
        const future = written.filter((p) => p.future);
        lines.push(
          `Production figures: ${written.length} of ${production.length} written${future.length ? ` (${future.map((p) => `${p.product_instance_external_id} ${p.year}`).join(', ')}: future year${future.length > 1 ? 's' : ''}, blocked until ${future.length > 1 ? 'they arrive' : 'it arrives'})` : ''}.`,
        );
        for (const p of production.filter((x) => x.outcome === 'failed').slice(0, 20))
          lines.push(
            `  row ${p.row ?? '?'} ${p.product_instance_external_id} ${p.year}: failed [${p.err_code}] ${p.message ?? ''}`,
          );
        if (written.length && !recompute) lines.push('  (run with --recompute so the LCA uses them)');
      }
      lines.push(
        `LCA of ${s.total} product instance${s.total === 1 ? '' : 's'} (${report.selection}${recompute ? ', recomputed' : ''}): ${parts.join(', ')}.`,
      );
      for (const x of v
        .filter((x) => x.outcome !== 'completed' && x.outcome !== 'cancelled' && x.outcome !== 'skipped')
        .slice(0, 20)) {
        const who = x.external_id ?? x.id;
        if (x.outcome === 'idle') lines.push(`  ${who}: no LCA computed yet — run with --recompute.`);
        else
          lines.push(
            `  ${who}: ${x.outcome}${x.err_code ? ` [${x.err_code}]` : ''} — ${x.explanation ?? ''}${x.action ? ` ${x.action}` : ''}`,
          );
      }
      for (const x of noYear.slice(0, 20))
        lines.push(
          `  ${x.external_id ?? x.id}: the LCA job completed but computed no year (${x.years_blocked ? `${x.years_blocked} year${x.years_blocked === 1 ? '' : 's'} blocked` : 'no year to compute'}).`,
        );
      const needing = v.filter((x) => x.years_needing_data.length > 0);
      if (needing.length) {
        lines.push(
          `Production data missing (enter it with --production FILE or in the web interface, then recompute):`,
        );
        for (const x of needing.slice(0, 20))
          lines.push(`  ${x.external_id ?? x.id}: ${x.years_needing_data.join(', ')}`);
        if (needing.length > 20) lines.push(`  … and ${needing.length - 20} more (see the blockers sheet)`);
      }
      if (stats && out) {
        const r = stats.rows;
        lines.push(
          `Wrote ${out} (results ${r.results} rows, gwp ${r.gwp}${r.hotspots ? `, hotspots ${r.hotspots}` : ''}, trend ${r.trend}, blockers ${r.blockers}, jobs ${r.jobs}${r.breakdown ? `, breakdown ${r.breakdown}` : ''}).`,
        );
        for (const n of stats.notes) lines.push(`Note: ${n}`);
      }
      ctx.stdout(`${lines.join('\n')}\n`);
    }
    if (report.aborted) {
      const a = report.aborted;
      ctx.stderr(
        `supply-loader: ${a.message}${a.err_code ? ` [${a.err_code}]` : ''}${out ? ` The workbook holds what was done before.` : ''}\n`,
      );
    }
    return code;
  },
};
