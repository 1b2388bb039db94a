/**
 * A labelled choice (`label.field-inline` around a `select`): the filters of the check, the dry run and the job
 * results, and the Columns step's value translation. The options are values with their words (a plain string is
 * both); `V` is the type of the values, so a screen's filter state takes what is chosen without a cast.
 */
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.js';

export type SelectOption<V extends string> = V | { value: V; label: string };

export function SelectField<V extends string>({
  label,
  value,
  onChange,
  options,
  ariaLabel,
}: {
  label: ReactNode;
  value: V;
  onChange(value: V): void;
  options: readonly SelectOption<V>[];
  /** the select's own name for assistive technology, when the label is more than words */
  ariaLabel?: string;
}) {
  return (
    <label className="field-inline">
      <span>{label}</span>
      <select aria-label={ariaLabel} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => {
          const { value: v, label: words } = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {words}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/** The sheet filter of a list of rows: every sheet ('') or one of these. */
export function SheetSelect({
  value,
  onChange,
  sheets,
}: {
  value: string;
  onChange(sheet: string): void;
  sheets: readonly SelectOption<string>[];
}) {
  const { t } = useI18n();
  return (
    <SelectField
      label={t('plan.sheet')}
      value={value}
      onChange={onChange}
      options={[{ value: '', label: t('plan.allSheets') }, ...sheets]}
    />
  );
}
