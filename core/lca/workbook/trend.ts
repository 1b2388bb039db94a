/** `trend`: per instance and indicator, the change against the previous computed year (trendRows). */
import { declaredUnitLabel, trendRows } from '../analysis.js';
import type { ExportContext } from './context.js';
import { INSTANCE_COLUMNS, PCT_FORMAT, VALUE_FORMAT, YEAR_COLUMN, col, instanceCells, text, yesNo } from './columns.js';
import { SheetBuilder } from './sheet.js';

export function trendSheet(ctx: ExportContext): SheetBuilder {
  const trend = new SheetBuilder(
    'trend',
    [
      ...INSTANCE_COLUMNS,
      text('indicator', 16),
      text('modules', 9),
      text('unit', 22),
      YEAR_COLUMN,
      col('partial_year', 12),
      col('value', 14, VALUE_FORMAT),
      text('declared_unit', 13),
      col('value_per_declared_unit', 16, VALUE_FORMAT),
      col('previous_year', 10, '0'),
      col('previous_partial_year', 12),
      col('change', 14, VALUE_FORMAT),
      col('change_pct', 11, PCT_FORMAT),
      col('change_per_declared_unit', 16, VALUE_FORMAT),
      col('change_per_declared_unit_pct', 14, PCT_FORMAT),
    ],
    ctx.maxExtra,
  );
  for (const r of trendRows(ctx.report)) {
    const i = ctx.byId.get(r.instanceId)!;
    trend.add({
      ...instanceCells(i),
      indicator: r.indicator,
      modules: r.modules,
      unit: r.unit,
      year: r.year,
      partial_year: yesNo(r.partial),
      value: r.value,
      declared_unit: declaredUnitLabel(i.instance.product_unit),
      value_per_declared_unit: r.perDeclaredUnit.value,
      previous_year: r.previousYear,
      previous_partial_year: yesNo(r.previousPartial),
      change: r.changeAbs,
      change_pct: r.changePct,
      change_per_declared_unit: r.changePerUnitAbs,
      change_per_declared_unit_pct: r.changePerUnitPct,
    });
  }
  return trend;
}
