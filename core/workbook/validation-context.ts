/**
 * What the workbook checks write to: the issues found so far (capped), the rows an error blocks, and the
 * parsed sheets by name, for the checks across sheets (each sheet's `workbookRules`, see sheet-def.ts).
 */
import { IssueList } from './issues.js';
import { sourceCellOf } from './sheet-parts.js';
import type { DataSheetName, IssueCode, IssueParams, ParsedSheet, ParsedWorkbook, Severity } from './types.js';

export class ValidationContext {
  readonly issues: IssueList;
  readonly blocked = new Map<DataSheetName, Set<number>>();
  readonly sheets = new Map<DataSheetName, ParsedSheet>();

  constructor(parsed: ParsedWorkbook, maxIssues: number) {
    this.issues = new IssueList(maxIssues);
    for (const s of parsed.sheets) this.sheets.set(s.name, s);
  }

  block(sheet: DataSheetName, row: number): void {
    let set = this.blocked.get(sheet);
    if (!set) this.blocked.set(sheet, (set = new Set()));
    set.add(row);
  }

  /** Adds an issue at a row (and its field's cell); an error also blocks the row. */
  add(
    severity: Severity,
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    // At the source's own address (a sheet fed by several sources: the file the row came from).
    const at = sourceCellOf(sheet, field, row);
    this.issues.add({
      severity,
      code,
      sheet: at.sheet,
      cell: at.cell,
      row: at.row,
      field,
      message,
      ...(params && { params }),
    });
    if (severity === 'error') this.block(sheet.name, row);
  }

  error(
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    this.add('error', sheet, row, field, code, message, params);
  }

  warning(
    sheet: ParsedSheet,
    row: number,
    field: string | null,
    code: IssueCode,
    message: string,
    params?: IssueParams,
  ): void {
    this.add('warning', sheet, row, field, code, message, params);
  }
}
