/** What the ERP-source tests share: issues' addresses by code, the validation, a column mapping from a document. */
import { validateWorkbook } from '../../core/workbook/validate.js';
import { parseColumnMapping, type ColumnMapping } from '../../core/workbook/column-mapping/schema.js';
import type { Issue, ParsedWorkbook } from '../../core/workbook/types.js';

export const at = (issues: Issue[], code: string) =>
  issues.filter((i) => i.code === code).map((i) => `${i.sheet}!${i.cell}`);
export const check = async (p: ParsedWorkbook) => validateWorkbook(p);

export function mapping(doc: unknown): ColumnMapping {
  const r = parseColumnMapping(doc);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.mapping;
}
