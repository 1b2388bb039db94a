/** `blockers`: instance, year, blocker type, kind, code, the service's message, what the user should do. */
import { blockerAction, blockerNeedsAction, serviceCurrentYear } from '../model.js';
import type { ExportContext } from './context.js';
import { INSTANCE_COLUMNS, YEAR_COLUMN, col, instanceCells, text, yesNo } from './columns.js';
import { SheetBuilder } from './sheet.js';

export function blockersSheet(ctx: ExportContext): SheetBuilder {
  const blockers = new SheetBuilder(
    'blockers',
    [
      ...INSTANCE_COLUMNS,
      YEAR_COLUMN,
      text('type', 14),
      text('kind', 16),
      text('code', 30),
      text('err_code', 30),
      col('needs_action', 13),
      text('what_to_do', 70),
      text('message', 70),
    ],
    ctx.maxExtra,
  );
  for (const { i, years } of ctx.parsed) {
    const current = serviceCurrentYear(years, i.job);
    for (const y of years) {
      for (const b of y.blockers) {
        blockers.add(
          {
            ...instanceCells(i),
            year: y.year,
            type: b.type,
            kind: b.kind,
            code: b.code ?? b.err_code,
            err_code: b.err_code,
            needs_action: yesNo(blockerNeedsAction(y.year, current)),
            what_to_do: blockerAction(b, y.year, current),
            message: b.msg,
          },
          b.extra,
        );
      }
    }
  }
  return blockers;
}
