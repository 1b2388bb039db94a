/**
 * The workbooks an LCA run reads before anything is sent (the CLI's `lca --from-workbook FILE` and
 * `--production FILE`), and the production figures written through the API before the run: the instance codes
 * of an import workbook's product-instances sheet, and the rows of its production sheet, checked as an import
 * checks them (the reader's issues alone miss range checks). Problems come back in words at their cells; the
 * caller refuses the run on any.
 */
import type { ApiClient } from '../api/index.js';
import {
  productionRowsFromWorkbook,
  writeProductionFigures,
  type ProductionFigureRow,
  type ProductionWriteResult,
} from '../lca/production.js';
import { instanceCodesFromWorkbook } from '../lca/select.js';
import { readWorkbook } from '../workbook/reader.js';
import { validateWorkbook } from '../workbook/validate.js';

export type { ProductionFigureRow, ProductionWriteResult };

/** The instance codes of the workbook's product-instances sheet, or the problems that stop them being used. */
export async function instanceCodesOfWorkbook(
  file: string,
  o: { signal?: AbortSignal } = {},
): Promise<{ codes: string[]; problems: string[] }> {
  return instanceCodesFromWorkbook(await readWorkbook(file, { signal: o.signal }));
}

/** The rows of the workbook's production sheet, or the problems that stop them being sent. */
export async function productionOfWorkbook(
  file: string,
  o: { signal?: AbortSignal } = {},
): Promise<{ rows: ProductionFigureRow[]; problems: string[] }> {
  const parsed = await readWorkbook(file, { signal: o.signal });
  const checked = parsed.readable ? await validateWorkbook(parsed, { signal: o.signal }) : null;
  return productionRowsFromWorkbook(parsed, checked?.issues ?? parsed.issues);
}

/**
 * Write production figures through the API (one PUT per instance, instances found by external_id); each row's
 * outcome, a future year marked (written, blocked until it arrives).
 */
export function writeProduction(
  client: ApiClient,
  rows: readonly ProductionFigureRow[],
  o: { signal?: AbortSignal } = {},
): Promise<ProductionWriteResult[]> {
  return writeProductionFigures(client, rows, o);
}
