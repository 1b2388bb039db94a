/**
 * The export operation, once for the CLI (`export COLLECTION -o FILE`) and the app (`export.run`): a collection
 * (or all) read from the service into rows of the template format, written as a workbook. What may be asked
 * for (a collection of EXPORT_COLLECTIONS, or `all`) is isExportSelection.
 */
import type { ApiClient } from '../api/index.js';
import {
  collectExport,
  writeExportWorkbook,
  type CollectOptions,
  type ExportData,
  type ExportSelection,
} from '../export/index.js';

export { isExportSelection } from '../export/index.js';

export async function exportToWorkbook(
  client: ApiClient,
  selection: ExportSelection,
  file: string,
  o: Pick<CollectOptions, 'signal' | 'onProgress'> = {},
): Promise<{ data: ExportData; bytes: number }> {
  const data = await collectExport(client, selection, o);
  const bytes = await writeExportWorkbook(data, file);
  return { data, bytes };
}
