/** Collection export: any collection of the service to a workbook in the template format (export → edit → import). */
export {
  EXPORT_COLLECTIONS,
  SHEETS_OF,
  collectExport,
  isExportSelection,
  type CollectOptions,
  type ExportCollection,
  type ExportData,
  type ExportProgress,
  type ExportSelection,
  type ExportSheet,
  type ExportSheetName,
} from './collect.js';
export { exportSheets, writeExportWorkbook } from './write.js';
export { SNAPSHOT_COLUMN, snapshotOf } from '../jobs/snapshot.js';
