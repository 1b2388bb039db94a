/**
 * `supply-loader plan FILE [--json] [--create-only] [--lca-impact]`: the dry run — what an import would do, row by
 * row (and with --lca-impact the product instances it would affect, with estimates of the change).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blockedCount } from '../../app/import.js';
import { withCodes } from '../../app/codes.js';
import { plannedEntries } from '../../app/import-job.js';
import type { PlanEntry } from '../../app/import-job.js';
import { flag } from '../shared/args.js';
import { MAPPING_OPTION, mappingOption } from '../shared/column-mapping.js';
import { runContext } from '../shared/context.js';
import { checkSourceFiles } from '../shared/files.js';
import { MIRROR_OPTIONS, MIRROR_USAGE, mirrorOptions, planIntoJob } from '../shared/importing.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { formatPlan } from '../output/views.js';
import { loadForPlan, printIssues, sheetLines, sheetsJson } from '../shared/workbook.js';
import { CliUsageError } from '../shared/errors.js';
import { prepareLcaImpact } from '../../app/lca-impact.js';
import { dryRunLines } from './lca-impact.js';

export const planCommand: CliCommand = {
  name: 'plan',
  summary: 'Dry run: compare a workbook with the service and show what an import would create, update or block',
  usage: `supply-loader plan SOURCE... [--mapping FILE.json|NAME] [--json] [--create-only] [--mirror SHEET[,SHEET]] [--max-deletes N] [--lca-impact]
  SOURCE: a workbook (.xlsx) or CSV files, mixed (see "validate"); --mapping: a column mapping.
  Per row: create, update (field: before → after), unchanged, blocked (with the cell and why) or conflict (an
  exported row whose entity changed on the service since); per BOM: replace (added, removed, mass changed) or
  unchanged. Only reads from the service: nothing is written.
  --create-only   plan without updates: rows that differ from the service are left as they are
  --json          print the plan as JSON (the same data the import saves with its job)
  --lca-impact    list the product instances the import would affect (per plant, with the rows that affect
                  each) and estimate the change of their LCA results from the current ones (stored results
                  read, nothing recomputed); with --json as "lca_impact" (affected, estimates)
${MIRROR_USAGE}
  Exit code 0: nothing blocked; 2: the workbook has errors or rows are blocked (an import would refuse).`,
  options: {
    'create-only': { type: 'boolean' },
    'lca-impact': { type: 'boolean' },
    ...MIRROR_OPTIONS,
    ...MAPPING_OPTION,
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const rc = runContext(ctx);
    const files = checkSourceFiles(positionals, rc.cwd, 'plan');
    const mapping = mappingOption(rc, values, 'plan');
    const mirror = mirrorOptions(values, 'plan');
    // The plan's service reads run while the workbook is read (nothing is written).
    const w = await loadForPlan(files, rc, { ...(mapping && { mapping }) });
    if (!w.parsed.readable) {
      if (!ctx.json) printIssues(rc, w);
      const first = w.report.issues.find((i) => i.severity === 'error');
      throw new CliUsageError(`the workbook cannot be read${first ? `: ${first.message}` : ''}`, 'plan');
    }
    // Planned into a job folder of a scratch jobs folder, as an import plans (the entries go to a file as they are
    // decided and are read back once to be shown: a 200,000-row plan is not held in memory); nothing runs it.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'supply-loader-plan-'));
    try {
      const planned = await planIntoJob(rc, w, { createOnly: flag(values, 'create-only'), ...mirror }, tmp);
      const { plan } = planned;
      // The LCA impact as import --lca-impact's dry run decides it (reads only; its files go with the scratch folder).
      const impact = flag(values, 'lca-impact')
        ? await prepareLcaImpact(rc.client, tmp, planned.jobId, { signal: rc.signal })
        : null;
      const blocked = blockedCount(plan);
      // The codes the plan found unknown are errors of the sources, at their cells, among the others.
      const report = withCodes(w, plan.unknownCodes);
      const checked = { ...w, report };
      if (ctx.json) {
        printPlanJson(
          ctx.stdout,
          {
            ...plan,
            workbook: {
              errors: report.errors,
              warnings: report.warnings,
              issues: report.issues,
              sheets: sheetsJson(checked),
              codes_checked: true,
            },
            ...(impact && { lca_impact: { affected: impact.affected, estimates: impact.estimates } }),
          },
          plannedEntries(planned),
        );
      } else {
        // Every problem of the sources (header errors included), then what each sheet is read as.
        printIssues(rc, checked);
        for (const line of sheetLines(checked)) ctx.stdout(`${line}\n`);
        ctx.stdout(`${formatPlan(plan, undefined, plannedEntries(planned)).join('\n')}\n`);
        if (impact) ctx.stdout(`\n${dryRunLines(impact, { planOnly: true }).join('\n')}\n`);
        if (report.errors > 0)
          ctx.stdout(`\nThe sources have ${report.errors} error(s) (above): an import would refuse them.\n`);
        if (blocked > 0)
          ctx.stdout(
            `\n${blocked} entr${blocked === 1 ? 'y is' : 'ies are'} blocked: fix them before importing (or import with --skip-blocked).\n`,
          );
      }
      return blocked > 0 || report.errors > 0 ? EXIT.usage : EXIT.ok;
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
};

/**
 * The plan as one JSON document (as printJson would print it, the entries last), written entry by entry so the
 * whole text of a large plan is never one string.
 */
function printPlanJson(write: (s: string) => void, head: Record<string, unknown>, entries: Iterable<PlanEntry>): void {
  const text = JSON.stringify(head, null, 2);
  write(`${text.slice(0, text.lastIndexOf('}')).trimEnd()},\n  "entries": [`);
  let buf = '';
  let first = true;
  for (const e of entries) {
    buf += `${first ? '' : ','}\n    ${JSON.stringify(e, null, 2).replace(/\n/g, '\n    ')}`;
    first = false;
    if (buf.length >= 1 << 20) {
      write(buf);
      buf = '';
    }
  }
  write(`${buf}${first ? '' : '\n  '}]\n}\n`);
}
