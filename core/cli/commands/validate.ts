/** `supply-loader validate FILE`: read and check a workbook on its own (no connection, nothing sent). */
import { CODES_NOT_CHECKED } from '../../app/validate.js';
import { MAPPING_OPTION, mappingOption } from '../shared/column-mapping.js';
import { runContext } from '../shared/context.js';
import { checkSourceFiles } from '../shared/files.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { issueSummary, loadWorkbook, printIssues, sheetLines, sheetsJson, workbookFailed } from '../shared/workbook.js';

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check a workbook (headers, cell values, references between sheets) without sending anything',
  usage: `supply-loader validate SOURCE... [--mapping FILE.json|NAME] [--json]
  SOURCE: a workbook (.xlsx) or CSV files (.csv, .txt; a CSV's sheet is its file name, e.g.
  supplier-products.csv, unless a column mapping says otherwise), mixed as you like.
  --mapping   a column mapping (a JSON file, or the name of one saved with "supply-loader mapping save")
  Every problem is reported at its cell of the source (Sheet!C7, MAT_2025-11.csv!C7) with the field and what was
  expected; every sheet's rows, rows not read and ignored columns are listed. Codes that refer to
  the service (plants, material codes, article numbers, existing entities) are checked by "plan".
  Exit code 0: no errors (warnings allowed); 2: errors.`,
  options: { ...MAPPING_OPTION },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const rc = runContext(ctx);
    const files = checkSourceFiles(positionals, rc.cwd, 'validate');
    const mapping = mappingOption(rc, values, 'validate');
    const w = await loadWorkbook(files, rc, { ...(mapping && { mapping }) });
    const failed = workbookFailed(w);
    if (ctx.json) {
      rc.printJson({
        file: w.parsed.file,
        ok: !failed,
        readable: w.parsed.readable,
        sheets: sheetsJson(w),
        ignored_sheets: w.parsed.ignoredSheets,
        errors: w.report.errors,
        warnings: w.report.warnings,
        issues: w.report.issues,
        codes_checked: false,
      });
    } else {
      printIssues(rc, w);
      for (const line of sheetLines(w)) ctx.stdout(`${line}\n`);
      ctx.stdout(`${issueSummary(w)}${failed ? '' : ' — ok'}\n`);
      if (w.parsed.readable) ctx.stdout(`Not checked: ${CODES_NOT_CHECKED}.\n`);
    }
    return failed ? EXIT.usage : EXIT.ok;
  },
};
