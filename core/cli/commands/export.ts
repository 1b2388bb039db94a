/** `supply-loader export COLLECTION -o FILE`: a collection of the service to a workbook in the template format. */
import { exportToWorkbook, isExportSelection } from '../../app/export.js';
import { EXPORT_COLLECTIONS } from '../../names.js';
import { expectPositionals, str } from '../shared/args.js';
import { connectContext, runContext } from '../shared/context.js';
import { CliUsageError } from '../shared/errors.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { checkOutputPath } from '../shared/files.js';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a collection (or all) to a workbook in the template format, ready to edit and re-import',
  usage: `supply-loader export COLLECTION -o FILE.xlsx
  COLLECTION   one of: ${EXPORT_COLLECTIONS.join(', ')}, all
               (silos bring their silo-items sheet, supplier-products their hazardous-substances sheet)
  -o FILE      the workbook to write
  Codes are written instead of service ids (plant_code, material_code, …). Each row carries a hidden
  _snapshot of the service entity: on re-import, a row whose entity changed on the service since this export
  is reported as a conflict instead of being compared against data you never saw.`,
  options: { output: { type: 'string', short: 'o' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [collection] = expectPositionals(positionals, ['COLLECTION'], 'export');
    if (!isExportSelection(collection)) {
      throw new CliUsageError(
        `unknown collection "${collection}" (one of: ${EXPORT_COLLECTIONS.join(', ')}, all)`,
        'export',
      );
    }
    const out = str(values, 'output');
    if (!out) throw new CliUsageError('missing -o FILE (the workbook to write)', 'export');
    const rc = runContext(ctx);
    const file = checkOutputPath(out, rc.cwd, 'export');
    await connectContext(ctx);
    let bar: ReturnType<typeof ctx.progress> | undefined;
    let lastCollection = '';
    let lastDone = 0;
    const { data, bytes } = await exportToWorkbook(ctx.client, collection, file, {
      signal: ctx.signal,
      onProgress: (p) => {
        if (p.collection !== lastCollection) {
          bar?.done();
          bar = ctx.progress(0, `reading ${p.collection}`);
          lastCollection = p.collection;
          lastDone = 0;
        }
        bar?.tick(p.done - lastDone);
        lastDone = p.done;
      },
    });
    bar?.done();
    const sheets = data.sheets.map((s) => ({ sheet: s.name, rows: s.rows.length }));
    if (ctx.json) {
      ctx.stdout(
        `${JSON.stringify({ file, bytes, collections: data.collections, sheets, warnings: data.warnings, requests: data.requests }, null, 2)}\n`,
      );
    } else {
      ctx.stdout(`Exported to ${file}:\n`);
      for (const s of sheets) ctx.stdout(`  ${s.sheet.padEnd(22)} ${String(s.rows).padStart(7)} rows\n`);
      ctx.stdout(`  (${data.requests} requests)\n`);
      for (const w of data.warnings) ctx.stderr(`warning: ${w}\n`);
    }
    return EXIT.ok;
  },
};
