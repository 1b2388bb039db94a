import { useI18n } from '../i18n/index.js';

/** The search box of the filter bars (dry run, validation issues, results): one label, one input. */
export function SearchField(props: { value: string; onChange: (value: string) => void; placeholder: string }) {
  const { t } = useI18n();
  return (
    <label className="field-inline grow">
      <span>{t('plan.search')}</span>
      <input
        type="search"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder={props.placeholder}
      />
    </label>
  );
}
