/**
 * `indicators` (wide): one row per instance × year; a column per module of GWP-total, then the other indicators;
 * colour scales (white → red on GWP-total, green → yellow → red on the others) so the big emitters stand out.
 * (Colour scales rather than data bars: exceljs's streaming writer cannot write the Excel 2010 extension part
 * data bars need, and a half-written data bar is a file Excel may want to repair.)
 */
import type ExcelJS from 'exceljs';
import { columnLetter } from '../../workbook/cell-ref.js';
import type { CellValue } from '../flatten.js';
import { GWP_TOTAL } from '../indicators.js';
import type { ExportContext } from './context.js';
import {
  INSTANCE_COLUMNS,
  QUANTITY_FORMAT,
  RESULT_YEAR_COLUMNS,
  VALUE_FORMAT,
  col,
  resultYearCells,
} from './columns.js';
import { SheetBuilder, type StreamSheet } from './sheet.js';

export function gwpSheet(ctx: ExportContext): SheetBuilder {
  const { indicators, pairs, unitOf } = ctx;
  const wideIndicators = [GWP_TOTAL, ...indicators.filter((x) => x !== GWP_TOTAL)].filter((x) =>
    indicators.includes(x),
  );
  const wideCols: { key: string; indicator: string; module: string | null }[] = [];
  for (const ind of wideIndicators)
    for (const [pi, pm] of pairs)
      if (pi === ind) wideCols.push({ key: `${ind} ${pm ?? ''}`.trim(), indicator: ind, module: pm });
  const gwp = new SheetBuilder(
    'indicators',
    [
      ...INSTANCE_COLUMNS,
      ...RESULT_YEAR_COLUMNS,
      col('production_quantity', 14, QUANTITY_FORMAT),
      ...wideCols.map((c) => {
        const unit = unitOf.get(c.indicator);
        return { key: c.key, header: unit ? `${c.key} [${unit}]` : c.key, width: 16, numFmt: VALUE_FORMAT };
      }),
    ],
    ctx.maxExtra,
  );
  let duplicates = 0;
  for (const { i, years } of ctx.parsed) {
    for (const y of years) {
      const cells: Record<string, CellValue> = {
        ...resultYearCells(i, y),
        production_quantity: y.production_quantity,
      };
      for (const c of wideCols) {
        const m = (y.values ?? []).filter(
          (v) => v.indicator === c.indicator && v.module === c.module && v.value !== null,
        );
        cells[c.key] = m.length > 0 ? m[0].value : null;
        if (m.length > 1) duplicates++;
      }
      gwp.add(cells);
    }
  }
  if (duplicates > 0) {
    ctx.notes.push(
      `${duplicates} ${duplicates === 1 ? 'time' : 'times'} a year declared the same indicator and module twice: the indicators sheet shows the first value, the results sheet every one.`,
    );
  }
  const valueKeys = wideCols.map((c) => c.key);
  gwp.decorate = (ws) => addColourScales(ws, gwp, valueKeys);
  return gwp;
}

/** Colour scales: white → red on the GWP-total columns, green → yellow → red on every other indicator. */
function addColourScales(ws: StreamSheet, b: SheetBuilder, valueKeys: string[]): void {
  if (b.rows.length === 0) return;
  const last = b.rows.length + 1;
  let priority = 1;
  for (const key of valueKeys) {
    const col = b.columns.findIndex((c) => c.key === key) + 1;
    if (col <= 0) continue;
    const ref = `${columnLetter(col)}2:${columnLetter(col)}${last}`;
    const gwpTotal = key.startsWith(`${GWP_TOTAL} `) || key === GWP_TOTAL;
    const rule: ExcelJS.ColorScaleRuleType = gwpTotal
      ? {
          type: 'colorScale',
          priority: priority++,
          cfvo: [{ type: 'min' }, { type: 'max' }],
          color: [{ argb: 'FFFFFFFF' }, { argb: 'FFE0533D' }],
        }
      : {
          type: 'colorScale',
          priority: priority++,
          cfvo: [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }],
          color: [{ argb: 'FF63BE7B' }, { argb: 'FFFFEB84' }, { argb: 'FFF8696B' }],
        };
    ws.addConditionalFormatting({ ref, rules: [rule] });
  }
}
