/** Collects issues up to a cap (errors and warnings counted separately), then says how many were left off. */
import type { Issue, IssueCode, IssueParams } from './types.js';

/** Every issue code the reader and validation can emit (defined with the Issue shape in types.ts). */
export { ISSUE_CODES } from './types.js';

export class IssueList {
  private readonly items: Issue[] = [];
  private errors = 0;
  private warnings = 0;
  private droppedErrors = 0;
  private droppedWarnings = 0;
  private fileLevel = false;

  constructor(private readonly max: number) {}

  add(issue: Issue): void {
    if (issue.severity === 'error') {
      if (this.errors >= this.max) {
        this.droppedErrors++;
        return;
      }
      this.errors++;
    } else {
      if (this.warnings >= this.max) {
        this.droppedWarnings++;
        return;
      }
      this.warnings++;
    }
    this.items.push(issue);
  }

  /** A problem with the whole file: reading stops. */
  fileError(code: IssueCode, message: string, params?: IssueParams): void {
    this.fileLevel = true;
    this.add({
      severity: 'error',
      code,
      sheet: null,
      cell: null,
      row: null,
      field: null,
      message,
      ...(params && { params }),
    });
  }

  hasFileError(): boolean {
    return this.fileLevel;
  }

  get errorCount(): number {
    return this.errors + this.droppedErrors;
  }

  get warningCount(): number {
    return this.warnings + this.droppedWarnings;
  }

  done(): Issue[] {
    const out = this.items.slice();
    if (this.droppedErrors || this.droppedWarnings)
      out.push({
        severity: this.droppedErrors ? 'error' : 'warning',
        code: 'too_many_issues',
        sheet: null,
        cell: null,
        row: null,
        field: null,
        message: `${(this.droppedErrors + this.droppedWarnings).toLocaleString('en')} more issues (${this.droppedErrors.toLocaleString('en')} errors, ${this.droppedWarnings.toLocaleString('en')} warnings) were left off this list.`,
        params: {
          count: this.droppedErrors + this.droppedWarnings,
          errors: this.droppedErrors,
          warnings: this.droppedWarnings,
        },
      });
    return out;
  }
}
