/**
 * Columns of the sources that are not read (nothing silently ignored): unknown headers and those a
 * column mapping sets to "not imported", per sheet at their header cell. Shown by the check and the dry run.
 */
import type { ImportValidation } from '../../../../core/ipc/contract.js';
import { useI18n } from '../../i18n/index.js';

export function IgnoredColumns({ sheets }: { sheets: ImportValidation['sheets'] }) {
  const { t } = useI18n();
  const withIgnored = sheets.filter((s) => s.ignoredColumns?.length);
  if (withIgnored.length === 0) return null;
  return (
    <ul className="field-hint ignored-columns" aria-label={t('check.ignoredColumnsTitle')}>
      {withIgnored.map((s) => (
        <li key={s.name}>
          {t('check.ignoredColumns', {
            sheet: s.sheetName,
            columns: s
              .ignoredColumns!.map(
                (c) => `${c.header} (${c.cell}${c.reason === 'mapping' ? `, ${t('check.ignoredByMapping')}` : ''})`,
              )
              .join(', '),
          })}
        </li>
      ))}
    </ul>
  );
}
