/**
 * Issues of the workbook check and problems of the dry run in the user's language: every code the core can
 * emit has an English and a German template; issues read from a real workbook render in German with their
 * cell, field, expected type and value, and in English exactly as the core's message (so the params carry
 * everything the message says); an unknown code or a missing value falls back to the English message.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES, IDENTIFIED_KINDS } from '../../core/jobs/entities.js';
import { PLAN_PROBLEM_CODES, type PlanProblem } from '../../core/jobs/types.js';
import { ISSUE_CODES } from '../../core/workbook/issues.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { Issue, ValidationReport } from '../../core/workbook/types.js';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { fieldLabel } from '../../renderer/src/i18n/field-labels.js';
import { issueGroupTitle, issueText, problemText } from '../../renderer/src/screens/import/issueText.js';
import { planFile, startEnv, writeTestWorkbook, type Env } from '../jobs/helpers.js';
import { headerOf, rowOf, tempDir, writeXlsx } from '../workbook/helpers.js';

const WORKBOOK_SRC = join(import.meta.dirname, '../../core/workbook');
const JOBS_SRC = join(import.meta.dirname, '../../core/jobs');

function workbookSources(): string {
  const dirs = [WORKBOOK_SRC, join(WORKBOOK_SRC, 'sheets')];
  return dirs
    .flatMap((d) =>
      readdirSync(d)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => readFileSync(join(d, f), 'utf8')),
    )
    .join('\n');
}

/** The planner's sources that build PlanProblems (jobs/types.ts holds the list itself): the entry, the per-kind
 * planners in plan/ and the workbook index. */
function jobsSources(): string {
  const planners = readdirSync(join(JOBS_SRC, 'plan'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join('plan', f));
  return ['plan.ts', 'workbook-rows.ts', ...planners].map((f) => readFileSync(join(JOBS_SRC, f), 'utf8')).join('\n');
}

describe('issue templates', () => {
  it('exist in English and German for every code the workbook reader and validation can emit', () => {
    const src = workbookSources();
    // The list is the source of truth: every code literal the sources hand to an issue is in it.
    const used = new Set(
      [...src.matchAll(/code: '([a-z_]+)'|(?:fileError|FileLevelError)\(\s*'([a-z_]+)'|IssueCode = '([a-z_]+)'/g)]
        .map((m) => m[1] ?? m[2] ?? m[3])
        .filter((c) => !c.startsWith('err_')), // the spec's err_codes of rule violations
    );
    expect(used.size).toBeGreaterThan(30);
    for (const c of used) expect(ISSUE_CODES as readonly string[], c).toContain(c);
    for (const code of ISSUE_CODES) {
      expect(en, code).toHaveProperty([`issue.${code}`]);
      expect(de, code).toHaveProperty([`issue.${code}`]);
    }
  });

  it('exist for every variant the core names', () => {
    const variants = new Set([...workbookSources().matchAll(/variant: '(\w+)'/g)].map((m) => m[1]));
    expect(variants.size).toBeGreaterThan(10);
    const keys = Object.keys(en);
    for (const v of variants)
      expect(
        keys.some((k) => k.startsWith('issue.') && k.endsWith(`.${v}`)),
        v,
      ).toBe(true);
  });
});

describe('issues of a real workbook', () => {
  const tmp = tempDir('sl-issue-text-');
  afterAll(() => tmp.cleanup());
  let report: ValidationReport;
  const find = (code: string, field?: string) => {
    const i = report.issues.find((x) => x.code === code && (field === undefined || x.field === field));
    if (!i) throw new Error(`no ${code} issue${field ? ` at ${field}` : ''}`);
    return i;
  };

  beforeAll(async () => {
    const path = tmp.file('issues.xlsx');
    const sp = (v: Record<string, unknown>) =>
      rowOf('supplier-products', { name: 'Kies', plant_code: 'P1', material_code: 'M1', unit: 'T', ...v } as never);
    await writeXlsx(path, {
      'supplier-companies': [
        [...headerOf('supplier-companies'), 'Bemerkung'],
        ['SC-1', 'Kies AG', 'DE'],
        ['SC-1', 'x'.repeat(300), 'XX'],
        ['SC-3', '#CLEAR', null],
      ],
      'supplier-products': [
        headerOf('supplier-products'),
        sp({ external_id: 'SP-1', truck_km: 'viel' }),
        sp({ external_id: 'SP-2', truck_km: -3, secondary_percentage: 120 }),
        sp({ external_id: 'SP-3', unit: 'Kilo', lifetime_years: '1,250' }),
        sp({ external_id: 'SP-4', secondary_percentage: 120 }),
        sp({ external_id: null }),
      ],
      'product-instances': [headerOf('product-instances'), ['PI-1', 'A-1', 'P1', new Date(Date.UTC(2021, 4, 3)), 2019]],
      // a sheet of deletes: its row that is not a delete needs the columns the header lacks
      silos: [
        ['external_id', 'action'],
        ['S-1', 'delete'],
        ['S-2', null],
      ],
      Notizen: [['frei']],
    });
    report = await validateWorkbook(await readWorkbook(path));
  });

  it('say in English exactly what the core says (the params carry every value of the message)', () => {
    // `rule` with a known rule words it itself; the others must match the core's message word for word.
    const checked = report.issues.filter((i) => i.code !== 'rule');
    expect(checked.length).toBeGreaterThan(8);
    // the field by its label where the core names it by its name, except in a header issue (the name to type)
    const header = new Set(['missing_header', 'duplicate_header', 'header_normalised', 'missing_column']);
    const shown = (i: (typeof checked)[number]) =>
      i.field && !header.has(i.code)
        ? i.message.replace(new RegExp(`\\b${i.field}\\b`), fieldLabel(i.field, 'en'))
        : i.message;
    // (an issue whose template does not name the field, a duplicate key's, says it as the core does)
    for (const i of checked) expect([shown(i), i.message], `${i.code} ${i.cell}`).toContain(issueText(i, 'en'));
  });

  it('are German, with no placeholder left and no English message, for every issue', () => {
    for (const i of report.issues) {
      const text = issueText(i, 'de');
      expect(text, i.code).not.toMatch(/[{}]/);
      expect(text, i.code).not.toBe(i.message);
    }
  });

  it('name the field, the expected type and the value in German', () => {
    expect(issueText(find('wrong_type', 'truck_km'), 'de')).toBe(
      'Strecke per Lkw (km): Erwartet wird eine Zahl ≥ 0 in km; in der Zelle steht „viel“.',
    );
    expect(issueText(find('out_of_range', 'truck_km'), 'de')).toBe(
      'Strecke per Lkw (km): Erwartet wird eine Zahl ≥ 0 in km; in der Zelle steht -3.',
    );
    expect(issueText(find('not_allowed', 'unit'), 'de')).toMatch(
      /^Einheit: Erwartet wird einer der Werte .*KG.*; in der Zelle steht „Kilo“\.$/,
    );
    expect(issueText(find('not_allowed', 'country'), 'de')).toBe(
      'Land: Erwartet wird ein Ländercode nach ISO 3166 Alpha-2 (DE, AT, FR …); in der Zelle steht „XX“.',
    );
    expect(issueText(find('required', 'external_id'), 'de')).toBe(
      'Ihr Code ist ein Pflichtfeld, aber die Zelle ist leer.',
    );
    expect(issueText(find('clear_required', 'name'), 'de')).toBe(
      'Bezeichnung ist ein Pflichtfeld und kann nicht mit #CLEAR geleert werden.',
    );
    expect(issueText(find('too_long', 'name'), 'de')).toBe(
      'Bezeichnung ist 300 Zeichen lang; erlaubt sind höchstens 255.',
    );
    expect(issueText(find('number_as_text_ambiguous'), 'de')).toBe(
      'Lebensdauer (Jahre): Der Text „1,250“ kann 1,25 oder 1250 bedeuten (Dezimal- oder Tausendertrennzeichen?); tragen Sie die Zahl selbst ein (1,25 oder 1250).',
    );
    expect(issueText(find('date_as_year'), 'de')).toBe(
      'Erstes Produktionsjahr: Die Zelle enthält das Datum 2021-05-03, wo eine Jahreszahl hingehört; verwendet wird das Jahr 2021.',
    );
  });

  it('name the cell, the sheet and the rows in German', () => {
    const dup = find('duplicate_key');
    expect(dup.cell).toMatch(/^A[23]$/);
    expect(issueText(dup, 'de')).toBe(
      'external_id „SC-1“ kommt 2-mal in supplier-companies vor (Zeilen 2, 3); jeder Wert darf nur einmal vorkommen.',
    );
    const unknownColumn = find('unknown_column');
    expect(issueText(unknownColumn, 'de')).toBe(
      'Die Spalte „Bemerkung“ ist kein Feld von supplier-companies und wird nicht gelesen.',
    );
    expect(issueText(find('unknown_sheet'), 'de')).toMatch(
      /^Das Tabellenblatt „Notizen“ gehört nicht zu Supply Loader/,
    );
    expect(issueText(find('rule', 'secondary_percentage'), 'de')).toBe(
      'Sekundärmaterial (%) muss zwischen 0 und 100 liegen. (eingetragen: 120)',
    );
    expect(issueText(find('missing_column', 'plant_code'), 'de')).toBe(
      'Die Spalte plant_code fehlt in Zeile 1, und diese Zeile braucht sie: fügen Sie die Spalte plant_code hinzu (z. B. in D1) oder markieren Sie die Zeile mit delete.',
    );
    expect(issueText(find('rule', 'produced_to'), 'de')).toBe(
      'Letztes Produktionsjahr darf nicht vor „Erstes Produktionsjahr“ liegen. (eingetragen: 2019)',
    );
  });
});

describe('fallbacks', () => {
  const base: Issue = {
    severity: 'error',
    code: 'required',
    sheet: 'bom',
    cell: 'C7',
    row: 7,
    field: 'mass_kg',
    message: 'mass_kg is required but the cell is blank',
  };

  it('an unknown code shows the English message, never JSON or a placeholder', () => {
    const unknown = { ...base, code: 'from_a_newer_core', params: { x: 1 }, message: 'Something new.' };
    expect(issueText(unknown, 'de')).toBe('Something new.');
  });

  it('a template whose value is missing shows the English message', () => {
    const noParams = { ...base, code: 'wrong_type' as const, message: 'mass_kg: expected a number, got "x"' };
    expect(issueText(noParams, 'de')).toBe('mass_kg: expected a number, got "x"');
  });

  it('file-level issues pick the variant of their code', () => {
    const file = { ...base, sheet: null, cell: null, row: null, field: null };
    expect(issueText({ ...file, code: 'other_format', params: { variant: 'ods' }, message: 'ods' }, 'de')).toMatch(
      /OpenDocument-Tabelle \(\.ods\)/,
    );
    expect(issueText({ ...file, code: 'other_format', params: { variant: 'new' }, message: 'x' }, 'de')).toMatch(
      /^Das ist keine \.xlsx-Arbeitsmappe/,
    );
    expect(
      issueText(
        { ...file, code: 'too_many_issues', params: { count: 12345, errors: 12000, warnings: 345 }, message: 'x' },
        'de',
      ),
    ).toBe('12.345 weitere Meldungen (12.000 Fehler, 345 Warnungen) sind in dieser Liste nicht aufgeführt.');
  });

  it('dry-run problems: a workbook issue by its code, the planner’s own by kind with its message', () => {
    const validation = { kind: 'validation', ...base, code: 'required', errCode: null };
    expect(problemText(validation, 'de')).toBe('Masse (kg) ist ein Pflichtfeld, aber die Zelle ist leer.');
    const unresolved = {
      kind: 'unresolved',
      sheet: 'bom',
      cell: 'C7',
      row: 7,
      field: 'component_external_id',
      message: 'no silo "S-9"',
      errCode: null,
    };
    expect(problemText(unresolved, 'de')).toBe('Unbekannter Code: no silo "S-9"');
    expect(problemText(unresolved, 'en')).toBe('no silo "S-9"');
  });

  it('an unknown code keeps its closest known codes in both languages ("did you mean MAT-SAND?")', () => {
    const message =
      'material_code: material code "MAT-SNAD" is not in the materials sheet, the profile\'s mappings or among the service\'s elementaries and composites (did you mean MAT-SAND?)';
    const typo = {
      kind: 'unresolved',
      sheet: 'supplier-products',
      cell: 'D2',
      row: 2,
      field: 'material_code',
      message,
      errCode: null,
      code: 'material_unknown',
      params: { value: 'MAT-SNAD', hint: 'MAT-SAND' },
    };
    expect(problemText(typo, 'en')).toBe(message.replace('material_code:', 'Material code:'));
    expect(problemText(typo, 'de')).toMatch(/MAT-SNAD.*\(meinten Sie MAT-SAND\?\)$/);
    // without a near miss, no suffix
    expect(problemText({ ...typo, params: { value: 'MAT-SNAD' } }, 'en')).not.toContain('did you mean');
  });
});

describe('planner problem templates', () => {
  it('exist in English and German for every PLAN_PROBLEM_CODES entry, and the planner uses no other code', () => {
    const src = jobsSources();
    const used = new Set(
      [...src.matchAll(/code: '([a-z_]+)'|unknownCode\([^,]+, '([a-z_]+)'/g)].map((m) => m[1] ?? m[2]),
    );
    expect(used.size).toBeGreaterThan(12);
    for (const c of used) expect(PLAN_PROBLEM_CODES as readonly string[], c).toContain(c);
    for (const code of PLAN_PROBLEM_CODES) {
      expect(ISSUE_CODES as readonly string[], code).not.toContain(code);
      expect(en, code).toHaveProperty([`plan.${code}`]);
      expect(de, code).toHaveProperty([`plan.${code}`]);
    }
  });

  it('exist for every variant the planner names and every word its params need', () => {
    const src = jobsSources();
    const variants = [
      ...[...src.matchAll(/variant: '(\w+)'/g)].map((m) => m[1]),
      // siloRuleVariant(): which silo rule a message is ('other' has no template of its own)
      ...[...(/function siloRuleVariant[\s\S]*?\n}/.exec(src)?.[0] ?? '').matchAll(/return '(\w+)';/g)]
        .map((m) => m[1])
        .filter((v) => v !== 'other'),
      'changed',
      'deleted',
      'unreadable',
    ];
    const keys = Object.keys(en);
    for (const v of variants)
      expect(
        keys.some((k) => k.startsWith('plan.') && k.endsWith(`.${v}`)),
        v,
      ).toBe(true);
    for (const kind of [
      'supplier_company',
      'supplier_plant',
      'supplier_product',
      'silo',
      'product_instance',
      'prechain_product',
      'bom',
    ]) {
      for (const prefix of ['entity', 'entities']) {
        expect(en, kind).toHaveProperty([`${prefix}.${kind}`]);
        expect(de, kind).toHaveProperty([`${prefix}.${kind}`]);
      }
    }
    // resource slugs of the lists resolve.ts reads ('supplier companies' → supplier_companies): the identified
    // kinds under their entity table's nouns, the others named in resolve.ts itself
    const resolveSrc = readFileSync(join(JOBS_SRC, 'resolve.ts'), 'utf8');
    const whats = [
      ...IDENTIFIED_KINDS.map((k) => ENTITIES[k].nouns),
      ...[...resolveSrc.matchAll(/bulk\(\s*'\w+',\s*'([^']+)'/g)].map((m) => m[1]!),
    ];
    expect(resolveSrc).toContain('IDENTIFIED_KINDS.map');
    expect(whats.length).toBeGreaterThan(8);
    for (const w of whats) {
      const slug = w.replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');
      expect(en, w).toHaveProperty([`resource.${slug}`]);
      expect(de, w).toHaveProperty([`resource.${slug}`]);
    }
  });

  it('group titles exist for every workbook issue code', () => {
    for (const code of ISSUE_CODES) {
      expect(en, code).toHaveProperty([`issueGroup.${code}`]);
      expect(de, code).toHaveProperty([`issueGroup.${code}`]);
    }
    expect(issueGroupTitle('wrong_type', 'de')).toBe('Falscher Werttyp');
    expect(issueGroupTitle('from_a_newer_core', 'de')).toBe('from_a_newer_core');
  });
});

describe('problems of a real dry run against the sandbox', () => {
  let env: Env;
  const tmp = tempDir('sl-plan-text-');
  let problems: PlanProblem[];
  const find = (code: string) => {
    const p = problems.find((x) => x.code === code);
    if (!p) throw new Error(`no ${code} problem among ${problems.map((x) => x.code ?? x.kind).join(', ')}`);
    return p;
  };

  beforeAll(async () => {
    env = await startEnv();
    const path = await writeTestWorkbook(tmp.file('plan.xlsx'), {
      'supplier-companies': [{ external_id: 'SC-OK', name: 'Kies AG' }, { external_id: 'SC-BAD' }],
      'supplier-plants': [
        { external_id: 'SPL-A', name: 'Werk A', supplier_company_external_id: 'SC-BAD' },
        { external_id: 'SPL-B', name: 'Werk B', supplier_company_external_id: 'SC-404' },
      ],
      'supplier-products': [
        { external_id: 'SP-X', name: 'Sand', plant_code: 'NOPE', material_code: 'MAT-CEM1', unit: 'KG' },
      ],
    });
    const plan = await planFile(path, { client: env.client });
    problems = plan.entries.flatMap((e) => e.problems ?? []);
  }, 30_000);
  afterAll(async () => {
    await env?.close();
    tmp.cleanup();
  });

  it('carry a code and params from which English renders as the message the CLI prints, fields by their labels', () => {
    for (const code of ['reference_blocked', 'reference_unknown', 'plant_unknown'] as const) {
      const p = find(code);
      expect(p.params, code).toBeDefined();
      const label = p.field ? fieldLabel(p.field, 'en') : '';
      // the CLI names the code field by its name, the UI by its label
      const message = p.message.replace(
        /\bwith external_id ("[^"]*")/,
        `with the code $1 (${fieldLabel('external_id', 'en')})`,
      );
      expect(problemText({ ...p, kind: p.kind }, 'en'), code).toBe(p.field ? message.replace(p.field, label) : message);
    }
  });

  it('render in German with their values', () => {
    expect(problemText(find('reference_blocked'), 'de')).toBe(
      'Lieferant „SC-BAD“ verweist auf Lieferant SC-BAD (supplier-companies, Zeile 3); diese Zeile ist blockiert.',
    );
    expect(problemText(find('reference_unknown'), 'de')).toBe(
      'Lieferant: Kein Eintrag vom Typ Lieferant mit dem Code „SC-404“ (Ihr Code), weder in dieser Arbeitsmappe noch im Dienst.',
    );
    expect(problemText(find('plant_unknown'), 'de')).toMatch(
      /^Werkscode: Der Werkscode „NOPE“ steht weder im Blatt plants/,
    );
  });

  it('a problem whose word is unknown to this version shows the English message', () => {
    const p = find('reference_unknown');
    const odd = { ...p, params: { ...p.params, entityKind: 'from_a_newer_core' } };
    expect(problemText(odd, 'de')).toBe(p.message);
  });
});
