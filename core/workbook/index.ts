/**
 * Workbook format, templates, streaming reader, validation and writer. No electron import.
 *
 *   const parsed = await readWorkbook(path, { signal, onProgress, limits });   // never throws for bad input
 *   const report = await validateWorkbook(parsed, { signal, onProgress });      // JSON-serialisable
 *   report.ok, report.issues (sheet, cell, row, field, message, severity, code),
 *   report.sheets[].blockedRows, report.references (distinct codes per entity type: in the workbook or to
 *   resolve on the service); listReferences(parsed) yields each cell's reference
 */
export * from './types.js';
export { readWorkbook, type ReadOptions } from './reader.js';
export { validateWorkbook, type ValidateOptions } from './validate.js';
export { listReferences, referencedCodes } from './references.js';
export {
  writeWorkbook,
  type WorkbookSheetData,
  type WriteWorkbookOptions,
  type ExtraColumn,
  type WritableRow,
  type WritableValue,
} from './writer.js';
export {
  buildTemplate,
  writeTemplate,
  allTemplates,
  templateFileName,
  COMBINED_TEMPLATE_FILE,
  type TemplateOptions,
  type TemplateReferenceData,
} from './template.js';
export {
  DATA_SHEETS,
  PRODUCTS_REFERENCE_SHEET,
  getSheet,
  getAnySheet,
  columnsOf,
  isDataSheetName,
  type SheetRows,
  type ProductsReferenceRow,
} from './registry.js';
export type { SheetDef } from './sheet-def.js';
export { expectation, type Column, type ColumnSpec } from './columns.js';
export { DEFAULT_LIMITS } from './file-limits.js';
export { parseNumberText } from './coerce.js';
export { formatIssue, rowsOf } from './helpers.js';
