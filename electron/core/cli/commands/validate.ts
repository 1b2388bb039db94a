/** `supply-loader validate FILE`: read and check a workbook on its own (no connection, nothing sent). */
import { expectPositionals } from '../args.js';
import { runContext } from '../context.js';
import { checkInputFile } from '../files.js';
import { EXIT, type CliCommand } from '../types.js';
import { issueSummary, loadWorkbook, printIssues, workbookFailed } from '../workbook.js';

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check a workbook (headers, cell values, references between sheets) without sending anything',
  usage: `supply-loader validate FILE.xlsx [--json]
  Every problem is reported at its cell (Sheet!C7) with the field and what was expected. Codes that refer to
  the service (plants, material codes, article numbers, existing entities) are checked by "plan".
  Exit code 0: no errors (warnings allowed); 2: errors.`,
  options: {},
  needsConnection: false,
  async run(_values, positionals, ctx) {
    const [file] = expectPositionals(positionals, ['FILE'], 'validate');
    const rc = runContext(ctx);
    const w = await loadWorkbook(checkInputFile(file, rc.cwd, 'validate'), rc);
    const failed = workbookFailed(w);
    if (ctx.json) {
      rc.printJson({
        file: w.parsed.file,
        ok: !failed,
        readable: w.parsed.readable,
        sheets: w.parsed.sheets.map((s) => ({ sheet: s.name, name_in_file: s.sheetName, rows: s.rows.length })),
        ignored_sheets: w.parsed.ignoredSheets,
        errors: w.report.errors,
        warnings: w.report.warnings,
        issues: w.report.issues,
      });
    } else {
      printIssues(rc, w);
      ctx.stdout(`${issueSummary(w)}${failed ? '' : ' — ok'}\n`);
    }
    return failed ? EXIT.usage : EXIT.ok;
  },
};
