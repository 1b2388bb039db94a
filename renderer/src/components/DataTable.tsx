/**
 * A table of data (`table.data`): one heading per column (scope col), then the rows the screen renders, and an
 * optional footer (totals). The screens' tables differ in their rows, not in this frame.
 */
import type { ReactNode } from 'react';

/** A column's heading: its words, or with `num` (right-aligned figures) or `hidden` (read by screen readers only,
 * for a column of buttons). */
export type Column = string | { head: string; num?: boolean; hidden?: boolean };

export function DataTable({
  columns,
  className,
  foot,
  caption,
  label,
  children,
}: {
  columns: readonly Column[];
  /** classes besides `data` */
  className?: string;
  foot?: ReactNode;
  /** a caption read by screen readers only */
  caption?: string;
  /** the table's name for assistive technology */
  label?: string;
  children: ReactNode;
}) {
  return (
    <table className={className ? `data ${className}` : 'data'} aria-label={label}>
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c, i) => {
            const { head, num, hidden } = typeof c === 'string' ? { head: c } : c;
            return (
              <th scope="col" key={i} className={num ? 'num' : undefined}>
                {hidden ? <span className="visually-hidden">{head}</span> : head}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      {foot && <tfoot>{foot}</tfoot>}
    </table>
  );
}

/** A row's heading that is a name (a sheet, a code): `th scope=row` with the name as code. */
export function RowHead({ children }: { children: ReactNode }) {
  return (
    <th scope="row">
      <code>{children}</code>
    </th>
  );
}
