/**
 * The Columns step: per source that needs it (a CSV, a title above the header, a header that is not the
 * template's; a template sheet read as it is is only named) the sheet it feeds (changeable), its columns with
 * sample values and a field picker (high-confidence suggestions pre-selected, low ones offered but never applied
 * silently), required fields ticked off, value translation for enum fields, a preview of the first rows with its
 * problems worded as the check words them, "Save as mapping…".
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ProcedureOutput, RpcError } from '../../../../core/ipc/contract.js';
import { formatFieldValue } from '../../components/format.js';
import { DataTable } from '../../components/DataTable.js';
import { Notice } from '../../components/Notice.js';
import { SelectField } from '../../components/SelectField.js';
import { Tag } from '../../components/Tag.js';
import { fieldLabel } from '../../i18n/field-labels.js';
import { useI18n } from '../../i18n/index.js';
import { useRpc } from '../../useRpc.js';
import {
  buildMapping,
  choicesFromMapping,
  duplicateFields,
  IGNORE,
  UNDECIDED,
  initialChoices,
  missingRequired,
  sheetsFedTwice,
  valueMapsFromMapping,
  valuesToTranslate,
  type Choices,
  type ColumnMappingDoc,
  type ColumnsView,
  type ValueMaps,
} from './columnsLogic.js';
import { issueText } from './issueText.js';

export interface ColumnsStepProps {
  view: ColumnsView;
  /** the mapping to start from (a saved one being changed); else the suggestions */
  initial?: ColumnMappingDoc | null;
  onApply(mapping: ColumnMappingDoc): void;
  /** save the mapping under a name (its failure goes to `onError`) */
  onSave(name: string, mapping: ColumnMappingDoc): Promise<unknown>;
  /** where a failure is shown (the wizard's notice) */
  onError(e: RpcError): void;
  onBack(): void;
  /** the user chose the sheet a source feeds (the view is asked again for that sheet) */
  onSheet(source: string, sheet: string): void;
  /** the first rows as the core reads them with a mapping (import.columnsPreview) */
  preview(mapping: ColumnMappingDoc): Promise<Preview>;
  busy: boolean;
}

type Preview = ProcedureOutput<'import.columnsPreview'>;

export function ColumnsStep({
  view,
  initial,
  onApply,
  onSave,
  onError,
  onBack,
  onSheet,
  preview,
  busy,
}: ColumnsStepProps) {
  const { t, locale } = useI18n();
  // fields by their labels; a choice of the field names the template's column too (what its header row says)
  const label = (field: string) => fieldLabel(field, locale);
  const fieldChoice = (field: string) => {
    const l = label(field);
    // "Name", not "Name (name)": the column's name only where the label does not say it
    const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
    return plain(l) === plain(field) ? l : `${l} (${field})`;
  };
  const [choices, setChoices] = useState<Record<string, Choices>>(() =>
    Object.fromEntries(
      view.sources.map((s) => [
        s.source,
        initial ? choicesFromMapping(s, initial) : initialChoices(s, view.highConfidence),
      ]),
    ),
  );
  const [values, setValues] = useState<Record<string, ValueMaps>>(() =>
    initial ? Object.fromEntries(view.sources.map((s) => [s.source, valueMapsFromMapping(s, initial)])) : {},
  );
  // A source whose sheet changed (the user chose another) starts again from the suggestions for that sheet.
  const sheetsSeen = useRef(new Map(view.sources.map((s) => [s.source, s.sheet])));
  useEffect(() => {
    const changed = view.sources.filter((s) => sheetsSeen.current.get(s.source) !== s.sheet);
    sheetsSeen.current = new Map(view.sources.map((s) => [s.source, s.sheet]));
    if (changed.length === 0) return;
    setChoices((c) => ({
      ...c,
      ...Object.fromEntries(changed.map((s) => [s.source, initialChoices(s, view.highConfidence)])),
    }));
    setValues((v) => ({ ...v, ...Object.fromEntries(changed.map((s) => [s.source, {}])) }));
  }, [view]);
  const [name, setName] = useState(initial?.name ?? '');
  const saving = useRpc(onError);
  const [saved, setSaved] = useState<string | null>(null);
  const mapping = useMemo(() => buildMapping(view, choices, values), [view, choices, values]);
  const [read, setRead] = useState<Preview | null>(null);
  // The preview follows the choices (a short pause, so a burst of changes asks once).
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void preview(mapping).then(
        (p) => live && setRead(p),
        () => live && setRead(null),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mapping, preview]);
  const shown = view.sources.filter((s) => s.needed || !s.sheet);
  const mapped = shown.filter((s) => s.sheet);
  const asTemplate = view.sources.filter((s) => !s.needed && s.sheet);
  const twice = sheetsFedTwice(view);
  const blocking =
    twice.length > 0 ||
    mapped.some(
      (s) =>
        missingRequired(s, choices[s.source] ?? {}).length > 0 || duplicateFields(choices[s.source] ?? {}).length > 0,
    );
  const sheetChooser = (src: ColumnsView['sources'][number]) => (
    <label className="field-inline sheet-chooser">
      <span>{t('columns.feeds')}</span>
      <select
        aria-label={t('columns.sheetOf', { source: src.source })}
        value={src.sheet ?? ''}
        disabled={busy}
        onChange={(e) => e.target.value && onSheet(src.source, e.target.value)}
      >
        {!src.sheet && <option value="">{t('columns.noSheetChosen')}</option>}
        {view.targetSheets.map((sh) => (
          <option key={sh} value={sh}>
            {sh}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="stack">
      {asTemplate.length > 0 && (
        <p className="field-hint" role="note">
          {t('columns.asTemplate', { sheets: asTemplate.map((s) => s.source).join(', ') })}
        </p>
      )}
      {view.sources
        .filter((s) => !s.sheet)
        .map((s) => (
          <Notice key={s.source} kind="warning">
            {t('columns.noSheet', { source: s.source })} {sheetChooser(s)}
          </Notice>
        ))}
      {twice.length > 0 && <Notice kind="warning">{t('columns.fedTwice', { sheets: twice.join(', ') })}</Notice>}
      {mapped.map((src) => {
        const ch = choices[src.source] ?? {};
        const missing = missingRequired(src, ch);
        const dupes = duplicateFields(ch);
        const translate = valuesToTranslate(src, ch);
        const rows = read?.sources.find((p) => p.source === src.source && p.sheet === src.sheet);
        const setField = (column: string, field: string) =>
          setChoices((c) => ({ ...c, [src.source]: { ...c[src.source], [column]: field } }));
        const setValue = (field: string, from: string, to: string) =>
          setValues((v) => ({
            ...v,
            [src.source]: { ...v[src.source], [field]: { ...v[src.source]?.[field], [from]: to } },
          }));
        const headingId = `columns-${src.source.replace(/[^A-Za-z0-9]/g, '-')}`;
        return (
          <section key={src.source} className="card" aria-labelledby={headingId}>
            <div className="card-head">
              <h2 id={headingId}>{t('columns.title', { source: src.source, sheet: src.sheet ?? '' })}</h2>
              <span className="muted">{t('columns.headerRow', { row: src.headerRow })}</span>
            </div>
            {sheetChooser(src)}
            <p>{t('columns.intro')}</p>
            <div className="table-scroll">
              <DataTable
                className="compact columns-table"
                columns={[t('columns.column'), t('columns.samples'), t('columns.field')]}
              >
                {src.columns.map((c) => {
                  const s = c.suggestion;
                  const low = s !== null && s.confidence < view.highConfidence && ch[c.column] !== s.field;
                  return (
                    <tr key={c.column}>
                      <th scope="row">
                        <code>{c.column}</code>
                      </th>
                      <td className="samples">
                        {c.samples
                          .filter((x) => x !== '')
                          .slice(0, 3)
                          .join(' · ') || '—'}
                      </td>
                      <td className="field-choice">
                        <select
                          aria-label={t('columns.fieldOf', { column: c.column })}
                          value={ch[c.column] ?? IGNORE}
                          onChange={(e) => setField(c.column, e.target.value)}
                        >
                          {ch[c.column] === UNDECIDED && <option value={UNDECIDED}>{t('columns.undecided')}</option>}
                          <option value={IGNORE}>{t('columns.notImported')}</option>
                          {src.fields.map((f) => (
                            <option key={f.field} value={f.field}>
                              {fieldChoice(f.field)}
                              {f.required ? ' *' : ''}
                            </option>
                          ))}
                        </select>
                        {s && ch[c.column] === s.field && (
                          <span className="muted suggestion-note">
                            {' '}
                            {t('columns.suggested', { percent: Math.round(s.confidence * 100) })}
                          </span>
                        )}
                        {low && (
                          <button
                            type="button"
                            className="btn btn-quiet btn-small"
                            onClick={() => setField(c.column, s.field)}
                          >
                            {t('columns.lowSuggestion', {
                              field: label(s.field),
                              percent: Math.round(s.confidence * 100),
                            })}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </DataTable>
            </div>

            <h3>{t('columns.required')}</h3>
            <ul className="chips chips-words" aria-label={t('columns.required')}>
              {src.fields
                .filter((f) => f.required)
                .map((f) => (
                  <li key={f.field}>
                    <Tag tone={missing.includes(f.field) ? 'bad' : 'ok'}>
                      {missing.includes(f.field) ? '✗' : '✓'} {label(f.field)}
                    </Tag>
                  </li>
                ))}
            </ul>
            {missing.length > 0 && (
              <Notice kind="warning">{t('columns.missing', { fields: missing.map(label).join(', ') })}</Notice>
            )}
            {dupes.length > 0 && (
              <Notice kind="warning">{t('columns.duplicate', { fields: dupes.map(label).join(', ') })}</Notice>
            )}

            {translate.length > 0 && (
              <>
                <h3>{t('columns.values')}</h3>
                <p className="field-hint">{t('columns.valuesHint')}</p>
                {translate.map((tr) => (
                  <div key={tr.field} className="filters">
                    {tr.values.map((v) => (
                      <SelectField
                        key={v}
                        label={
                          <>
                            {label(tr.field)}: {locale === 'de' ? `„${v}“` : `“${v}”`} →
                          </>
                        }
                        ariaLabel={t('columns.valueOf', { field: label(tr.field), value: v })}
                        value={values[src.source]?.[tr.field]?.[v] ?? ''}
                        onChange={(to) => setValue(tr.field, v, to)}
                        options={[{ value: '', label: t('columns.asIs') }, ...tr.allowed]}
                      />
                    ))}
                  </div>
                ))}
              </>
            )}

            <h3>{t('columns.preview')}</h3>
            {rows && (
              <div className="table-scroll" tabIndex={0} role="region" aria-label={t('columns.preview')}>
                <DataTable
                  className="compact"
                  label={t('columns.preview')}
                  columns={[t('columns.row'), ...rows.fields.map(label)]}
                >
                  {rows.rows.map((r) => (
                    <tr key={r.row}>
                      <td>{r.row}</td>
                      {rows.fields.map((f) => (
                        <td key={f}>{formatFieldValue(f, r.values[f], locale)}</td>
                      ))}
                    </tr>
                  ))}
                </DataTable>
              </div>
            )}
            {rows && rows.issues.length > 0 && (
              <Notice kind="warning">
                <ul>
                  {rows.issues.slice(0, 10).map((i, n) => (
                    <li key={n}>
                      {i.cell && <code>{`${src.source}!${i.cell}`}</code>}{' '}
                      {issueText({ ...i, sheet: src.source, row: null }, locale)}
                    </li>
                  ))}
                </ul>
              </Notice>
            )}
          </section>
        );
      })}

      <section className="card" aria-labelledby="columns-save-heading">
        <h2 id="columns-save-heading">{t('columns.saveTitle')}</h2>
        <p className="field-hint">{t('columns.saveHint')}</p>
        <div className="filters">
          <label className="field-inline">
            <span>{t('columns.saveName')}</span>
            <input type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </label>
          <button
            type="button"
            className="btn"
            disabled={name.trim() === '' || saving.busy !== null || blocking || mapped.length === 0}
            onClick={() => {
              const n = name.trim();
              void saving.run(() => onSave(n, buildMapping(view, choices, values, n))).then((ok) => ok && setSaved(n));
            }}
          >
            {t('columns.save')}
          </button>
        </div>
        {saved && <Notice kind="success">{t('columns.saved', { name: saved })}</Notice>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onBack}>
            {t('check.another')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || blocking || mapped.length === 0}
            onClick={() => onApply(saved ? { ...mapping, name: saved } : mapping)}
          >
            {t('columns.apply')}
          </button>
        </div>
      </section>
    </div>
  );
}
