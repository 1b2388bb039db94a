/**
 * Write production figures (quantity per product instance and year) through the API before an LCA run — the
 * CLI's `lca --production FILE` (the workbook's `production` sheet) and the LCA screen's "Enter it here".
 * One PUT per instance with its years (the service sets the years sent, others unchanged). A service without
 * the endpoint fails each row with a clear message: enter the data in the web interface.
 */
import { ApiError, type ApiClient } from '../api/index.js';
import type { Issue, ParsedWorkbook } from '../workbook/types.js';
import { forEachPooled } from '../jobs/pool.js';
import { issueInWords, sheetToRead } from './select.js';

export interface ProductionFigureRow {
  /** Worksheet row (null when not from a workbook). */
  row: number | null;
  product_instance_external_id: string;
  year: number;
  quantity: number;
}

export interface ProductionWriteResult extends ProductionFigureRow {
  outcome: 'written' | 'failed';
  err_code: string | null;
  message: string | null;
  /** Past or current year: its LCA needs a recompute; future: stays blocked until it arrives. */
  future: boolean;
}

/** Rows of the workbook's `production` sheet, or the problems (in words, at cells) that stop them being sent. */
export function productionRowsFromWorkbook(
  parsed: ParsedWorkbook,
  /** The workbook check's issues (validateWorkbook(parsed).issues); the reader's alone miss range checks. */
  issues: readonly Issue[] = parsed.issues,
): { rows: ProductionFigureRow[]; problems: string[] } {
  const found = sheetToRead(parsed, 'production');
  if ('problems' in found) return { rows: [], problems: found.problems };
  const { sheet } = found;
  const problems = issues.filter((i) => i.severity === 'error' && i.sheet === sheet.sheetName).map(issueInWords);
  const rows: ProductionFigureRow[] = [];
  for (const r of sheet.rows) {
    const v = r.values;
    const code = v.product_instance_external_id;
    if (typeof code !== 'string' && typeof code !== 'number') continue;
    if (typeof v.year !== 'number' || typeof v.quantity !== 'number') continue;
    rows.push({ row: r.row, product_instance_external_id: String(code), year: v.year, quantity: v.quantity });
  }
  if (problems.length === 0 && rows.length === 0) problems.push(`${sheet.sheetName} lists no production figure`);
  return { rows, problems };
}

/**
 * Write the figures: instances resolved by external_id (codes not found fail their rows), one PUT per
 * instance. `currentYear` marks future years (they are written, and stay blocked until they arrive).
 */
export async function writeProductionFigures(
  client: ApiClient,
  rows: readonly ProductionFigureRow[],
  o: { signal?: AbortSignal; currentYear?: number } = {},
): Promise<ProductionWriteResult[]> {
  const current = o.currentYear ?? new Date().getUTCFullYear();
  const codes = [...new Set(rows.map((r) => r.product_instance_external_id))];
  const found = await client.productInstances.resolveExternalIds(codes, { signal: o.signal });
  const results = new Map<ProductionFigureRow, ProductionWriteResult>();
  const fail = (r: ProductionFigureRow, err_code: string, message: string) =>
    results.set(r, { ...r, outcome: 'failed', err_code, message, future: r.year > current });
  const byInstance = new Map<string, ProductionFigureRow[]>();
  for (const r of rows) {
    if (!found.has(r.product_instance_external_id)) {
      fail(
        r,
        'err_not_found',
        `no product instance with external_id "${r.product_instance_external_id}" the key can read`,
      );
      continue;
    }
    const list = byInstance.get(r.product_instance_external_id) ?? [];
    list.push(r);
    byInstance.set(r.product_instance_external_id, list);
  }
  await forEachPooled([...byInstance], 8, async ([code, list]) => {
    const inst = found.get(code)!;
    // The last row of a year wins (as a spreadsheet reader would expect); the earlier ones are reported.
    const byYear = new Map<number, ProductionFigureRow>();
    for (const r of list) {
      const prev = byYear.get(r.year);
      if (prev)
        fail(
          prev,
          'client_invalid_request',
          `year ${r.year} of ${code} is given again in row ${r.row ?? '?'}: that row's quantity is used`,
        );
      byYear.set(r.year, r);
    }
    try {
      await client.productionFigures.put(
        inst.id,
        [...byYear.values()].map((r) => ({ year: r.year, quantity: r.quantity })),
        {
          signal: o.signal,
          ...(typeof inst.produced_from === 'number'
            ? {
                producedFrom: inst.produced_from,
                producedTo: typeof inst.produced_to === 'number' ? inst.produced_to : null,
              }
            : {}),
        },
      );
      for (const r of byYear.values())
        results.set(r, { ...r, outcome: 'written', err_code: null, message: null, future: r.year > current });
    } catch (e) {
      const err_code = e instanceof ApiError ? e.err_code : 'client_unexpected';
      const msg = e instanceof ApiError ? e.msg : e instanceof Error ? e.message : String(e);
      for (const r of byYear.values()) fail(r, err_code, msg);
    }
  });
  return rows.map((r) => results.get(r)!);
}
