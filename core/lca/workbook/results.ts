/**
 * `results` (long): one row per instance × year × indicator × module, over the indicators and modules the
 * service returned for any instance in the export. A value the element does not declare is an empty cell,
 * never 0. Unknown fields of a results element, and of a value entry (`values[].…`), are extra columns
 * flattened by path. An element without a `values` array (the shape changed) gives one row with its fields
 * flattened instead of failing.
 */
import type { ExportContext } from './context.js';
import {
  INSTANCE_COLUMNS,
  PER_UNIT_COLUMNS,
  RESULT_YEAR_COLUMNS,
  VALUE_COLUMNS,
  perUnitCells,
  resultYearCells,
} from './columns.js';
import { SheetBuilder } from './sheet.js';

export function resultsSheet(ctx: ExportContext): SheetBuilder {
  const { pairs, unitOf } = ctx;
  const results = new SheetBuilder(
    'results',
    [...INSTANCE_COLUMNS, ...RESULT_YEAR_COLUMNS, ...VALUE_COLUMNS, ...PER_UNIT_COLUMNS],
    ctx.maxExtra,
  );
  for (const { i, years } of ctx.parsed) {
    for (const y of years) {
      const yearCells = resultYearCells(i, y);
      if (y.values === null) {
        // Changed shape: the element's fields, flattened, on one row.
        results.add({ ...yearCells, indicator: null, module: null, value: null, unit: null }, y.extra);
        continue;
      }
      const used = new Set<number>();
      for (const [ind, mod] of pairs) {
        const matches = y.values.map((v, k) => ({ v, k })).filter(({ v }) => v.indicator === ind && v.module === mod);
        if (matches.length === 0) {
          results.add(
            { ...yearCells, indicator: ind, module: mod, value: null, unit: unitOf.get(ind) ?? null },
            y.extra,
          );
        }
        for (const { v, k } of matches) {
          used.add(k);
          results.add(
            {
              ...yearCells,
              indicator: ind,
              module: mod,
              value: v.value,
              unit: v.unit ?? unitOf.get(ind) ?? null,
              ...perUnitCells(i, y, v.value),
            },
            { ...y.extra, ...v.extra },
          );
        }
      }
      // Value entries without an indicator: kept, flattened.
      y.values.forEach((v, k) => {
        if (!used.has(k))
          results.add(
            {
              ...yearCells,
              indicator: v.indicator,
              module: v.module,
              value: v.value,
              unit: v.unit,
              ...perUnitCells(i, y, v.value),
            },
            { ...y.extra, ...v.extra },
          );
      });
      // An element with no values and no pairs at all (nothing declared anywhere): still one row per year.
      if (pairs.length === 0 && y.values.length === 0)
        results.add({ ...yearCells, indicator: null, module: null, value: null, unit: null }, y.extra);
    }
  }
  if (ctx.shapeChanged > 0) {
    ctx.notes.push(
      `${ctx.shapeChanged} result element(s) came without a "values" list (the service's answer changed shape): their fields are exported as flattened columns on the results sheet.`,
    );
  }
  return results;
}
