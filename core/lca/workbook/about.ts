/** `about`: when, from where (base URL, key masked), which selection, counts, notes, and how to read the values. */
import type { CellValue } from '../flatten.js';
import { INDICATOR_INFO, INDICATOR_SOURCE } from '../indicators.js';
import type { LcaReport } from '../model.js';
import { TEXT } from './columns.js';
import { type StreamWorkbook, writeCell } from './sheet.js';

function aboutLines(report: LcaReport, notes: string[]): [string, CellValue][] {
  const s = report.summary;
  const lines: [string, CellValue][] = [
    ['generated_at', report.generated_at],
    ['base_url', report.base_url],
    ['api_key', report.masked_key],
    ['selection', report.selection],
    ['recompute', report.recompute ? 'yes' : 'no'],
    ['instances', s.total],
    ['completed', s.completed],
    ['idle (never computed)', s.idle],
    ['failed', s.failed],
    ['errors', s.error],
    ['unknown job status', s.unknown_status],
    ['cancelled', s.cancelled],
    ['skipped', s.skipped],
    [
      'stopped early',
      report.aborted
        ? `${report.aborted.message}${report.aborted.err_code ? ` (${report.aborted.err_code})` : ''}`
        : 'no',
    ],
    ['duration_s', Math.round(report.duration_ms / 100) / 10],
  ];
  notes.forEach((n, k) => lines.push([`note ${k + 1}`, n]));
  lines.push(['empty value cells', 'A value the service did not declare is an empty cell, never 0.']);
  lines.push([
    'values',
    "Every impact value is as computed by the service (API v2 lca-results). Supply Loader computes nothing: it only divides by the year's production quantity (value_per_declared_unit, in the product's unit) and, on the trend sheet, sums A1-A3 + A4 where the modules column says A1-A4. Modules are never mixed otherwise.",
  ]);
  lines.push([
    'per declared unit',
    "value ÷ the production quantity of that year, in the product's unit (per t, per m³ …). Where the service gives no quantity, per_declared_unit_note says so and the cell stays empty.",
  ]);
  lines.push([
    'partial years',
    'partial_year = yes marks the current calendar year: its result covers only the part of the year entered so far.',
  ]);
  lines.push(['indicators', INDICATOR_SOURCE]);
  for (const ind of INDICATOR_INFO) {
    lines.push([
      `indicator ${ind.code}`,
      `${ind.name_en} [${ind.unit}]: ${ind.definition_en} — ${ind.name_de} [${ind.unit_de}]: ${ind.definition_de}`,
    ]);
  }
  return lines;
}

export function writeAboutSheet(wb: StreamWorkbook, report: LcaReport, notes: string[]): void {
  const ws = wb.addWorksheet('about');
  ws.columns = [
    { key: 'k', width: 26 },
    { key: 'v', width: 90, style: { numFmt: TEXT } },
  ];
  aboutLines(report, notes).forEach(([k, v], r) => {
    const row = ws.getRow(r + 1);
    row.getCell(1).value = k;
    row.getCell(1).font = { bold: true };
    if (v !== null) writeCell(row.getCell(2), v);
    row.commit();
  });
  ws.commit();
}
