/**
 * `breakdown` (only when asked for): the service's per-source impacts as they came. When the service returned
 * a breakdown that is neither asked for nor shown as hotspots, a note says how to get it.
 */
import type { ExportContext } from './context.js';
import { INSTANCE_COLUMNS, VALUE_COLUMNS, YEAR_COLUMN, instanceCells, text } from './columns.js';
import { SheetBuilder } from './sheet.js';

export function breakdownSheet(ctx: ExportContext): SheetBuilder {
  const breakdown = new SheetBuilder(
    'breakdown',
    [...INSTANCE_COLUMNS, YEAR_COLUMN, text('component_type', 18), text('ref', 38), ...VALUE_COLUMNS],
    ctx.maxExtra,
  );
  if (ctx.opts.breakdown) {
    for (const { i, years } of ctx.parsed) {
      for (const y of years) {
        for (const e of y.breakdown ?? []) {
          breakdown.add(
            {
              ...instanceCells(i),
              year: y.year,
              component_type: e.component_type,
              ref: e.ref,
              indicator: e.indicator,
              module: e.module,
              value: e.value,
              unit: e.indicator ? (ctx.unitOf.get(e.indicator) ?? null) : null,
            },
            e.extra,
          );
        }
      }
    }
  } else if (ctx.breakdownPresent && !ctx.report.breakdown_context?.readable) {
    ctx.notes.push(
      'The service returned a per-source breakdown; it is not in this workbook (ask for it with the breakdown option, CLI --breakdown).',
    );
  }
  return breakdown;
}
