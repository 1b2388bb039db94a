/**
 * The notes of a dry run's entries (core/jobs/plan-notes.ts) in the UI's language: each note is known by its shape
 * and worded by its message, its entity labels, users and field names worded too; a note of any other shape is
 * not one of these (undefined).
 */
import { LABEL_NOUNS, type PlanNoteName, type RunNoteName } from '../../../core/jobs/plan-notes.js';
import { JOB_ROW_OUTCOMES, type JobRowOutcome } from '../../../core/names.js';
import { fieldLabel } from './field-labels.js';
import { catalogues, translate, type Locale, type MessageKey } from './index.js';
import { usersText } from './in-use-words.js';

/** The shapes, the more specific first where two could match. */
const NOTE_SHAPES: Readonly<Record<PlanNoteName, RegExp>> = {
  afterCreate: /^after create of (?<label>.+) \((?<row>[^()]+)\)$/,
  afterWrittenWithout: /^after (?<user>.+) is written without it$/,
  afterDeleteWithBom: /^after the delete of (?<label>.+) \(and with it (?<bom>.+)\)$/,
  afterDeleteOf: /^after the delete of (?<label>.+)$/,
  createOnlyNotApplied: /^create-only: the differences are not applied$/,
  actionCreateExists: /^action create: the entity exists, the differences are not applied$/,
  actionDelete: /^action delete$/,
  actionDeleteNotUsed: /^action delete \(only external_id is used; not used: (?<fields>.+)\)$/,
  alreadyAbsent: /^not on the service: already absent, nothing is sent$/,
  mirrorNotIn: /^mirror: not in (?<sheet>.+)$/,
  bomUnreadable: /^the current BOM could not be read \((?<detail>.*)\): it is replaced without a diff$/,
  bomCreateOnly: /^create-only: the BOM differs from the service's but is not replaced$/,
  figuresUnreadable:
    /^the production figures on the service could not be read \((?<detail>.*)\): every year is written$/,
  futureYear:
    /^(?<year>\d{4}) is a future year: its figure is written now, and its LCA stays blocked until \d{4} arrives \(spec rule 3\)$/,
  figuresCreateOnly: /^create-only: production figures that differ from the service are not overwritten$/,
};

const ROW = /^(?<sheet>\S+) row (?<row>\d+)$/;

/** A row as a note names it (core/jobs/plan-notes.ts rowWords). */
function rowText(row: string, locale: Locale): string {
  if (row === 'another row') return translate(locale, 'planNote.anotherRow');
  const m = ROW.exec(row)?.groups;
  return m ? translate(locale, 'planNote.row', { sheet: m.sheet, row: m.row }) : row;
}

/** An entry's label (`supplier company SC-1`) with its kind in the UI's words; as it came when of no known kind. */
function labelText(label: string, locale: Locale): string {
  const cat = catalogues[locale] as Record<string, string>;
  for (const { kind, noun } of LABEL_NOUNS) {
    const key = `entity.${kind}`;
    if (label.startsWith(`${noun} `) && Object.hasOwn(cat, key)) return `${cat[key]}${label.slice(noun.length)}`;
  }
  return label;
}

/** The values of a note in the UI's words. */
function wordsOf(groups: Record<string, string>, locale: Locale): Record<string, string> {
  const vars: Record<string, string> = { ...groups };
  if (groups.label !== undefined) vars.label = labelText(groups.label, locale);
  if (groups.row !== undefined) vars.row = rowText(groups.row, locale);
  if (groups.user !== undefined) vars.user = usersText(groups.user, locale);
  if (groups.bom !== undefined) vars.bom = usersText(groups.bom, locale);
  if (groups.fields !== undefined) {
    vars.fields = groups.fields
      .split(', ')
      .map((f) => fieldLabel(f, locale))
      .join(', ');
    vars.idField = fieldLabel('external_id', locale);
  }
  return vars;
}

/** A note of a dry run's entry in the UI's words; undefined when it is none of the plan's notes. */
export function planNoteText(note: string, locale: Locale): string | undefined {
  for (const [name, shape] of Object.entries(NOTE_SHAPES) as [PlanNoteName, RegExp][]) {
    const m = shape.exec(note);
    if (m) return translate(locale, `planNote.${name}` satisfies MessageKey, wordsOf({ ...m.groups }, locale));
  }
  return undefined;
}

const RUN_SHAPES: Readonly<Record<RunNoteName, RegExp>> = {
  dependencyNotSent:
    /^not sent: (?:(?<label>.+) \((?<row>[^()]+)\)|(?<key>\S+)) (?:(?<failed>failed)|was (?<outcome>\w+)|(?<notRun>did not run))$/,
  createOnly: /^not applied: the import runs create-only$/,
};

/**
 * What a job says of a row it did not send (core/jobs/plan-notes.ts RUN_NOTES) in the UI's words, without the
 * leading "not sent" (the row's skip reason says that); undefined when it is none of these.
 */
export function runNoteText(message: string, locale: Locale): string | undefined {
  if (RUN_SHAPES.createOnly.test(message)) return translate(locale, 'runNote.createOnly');
  const m = RUN_SHAPES.dependencyNotSent.exec(message)?.groups;
  if (!m) return undefined;
  const what = m.label !== undefined ? `${labelText(m.label, locale)} (${rowText(m.row, locale)})` : m.key;
  if (m.failed) return translate(locale, 'runNote.dependencyFailed', { what });
  if (m.notRun) return translate(locale, 'runNote.dependencyNotRun', { what });
  const known = m.outcome as JobRowOutcome;
  if (!JOB_ROW_OUTCOMES.includes(known)) return undefined;
  const outcome = translate(locale, `outcome.${known}` satisfies MessageKey);
  return `${what}: ${outcome}`;
}

/** `field: before → after` with a core field path (`transport_route.truck_km`, `items[X][2025]`). */
const CHANGED_FIELD = /^(?<field>[a-z_][a-z0-9_]*(?:\[[^\]]*\]|\.[a-z_][a-z0-9_]*)*): (?<rest>[\s\S]*)$/;

/**
 * The changes of an updated row as a job states them (`name: Old → New; transport_route.truck_km: 10 → 12`,
 * core/app/sessions/job-views.ts) with each field by its label; values as they came. A message that is not a
 * list of changes is kept as it came.
 */
export function changesText(message: string, locale: Locale): string {
  const out: string[] = [];
  for (const part of message.split(/; (?=[a-z_][a-z0-9_.[\]]*: )/)) {
    const m = CHANGED_FIELD.exec(part)?.groups;
    if (!m) return message;
    out.push(`${fieldLabel(m.field!, locale)}: ${m.rest}`);
  }
  return out.join('; ');
}
