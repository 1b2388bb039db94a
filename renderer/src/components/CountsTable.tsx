/**
 * Counts per sheet (rows) and per kind (columns: plan actions on the dry run, outcomes in a job's report), with a
 * totals row: the frame once; a screen says how a column is named and how a count is shown (a link, a blank).
 */
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.js';
import type { countRows } from '../screens/import/planView.js';
import { DataTable, RowHead } from './DataTable.js';
import { formatNumber } from './format.js';

export function CountsTable<C extends string>({
  table,
  columns,
  head,
  count,
  caption,
}: {
  /** the rows and totals (planView's countRows) */
  table: ReturnType<typeof countRows>;
  columns: readonly C[];
  /** a column's heading */
  head(c: C): string;
  /** a count in a sheet's row (0 when there is none) */
  count(sheet: string, c: C, n: number): ReactNode;
  caption?: string;
}) {
  const { t, locale } = useI18n();
  return (
    <div className="counts-scroll">
      <DataTable
        className="counts"
        caption={caption}
        columns={[t('plan.sheet'), ...columns.map((c) => ({ head: head(c), num: true }))]}
        foot={
          <tr>
            <th scope="row">{t('plan.total')}</th>
            {columns.map((c) => (
              <td key={c} className="num">
                {formatNumber(table.totals[c] ?? 0, locale)}
              </td>
            ))}
          </tr>
        }
      >
        {table.rows.map((r) => (
          <tr key={r.sheet}>
            <RowHead>{r.sheet}</RowHead>
            {columns.map((c) => (
              <td key={c} className="num">
                {count(r.sheet, c, r.counts[c] ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
