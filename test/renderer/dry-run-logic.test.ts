/**
 * The dry run's choices that are not layout (renderer/src/screens/import/planView.ts): "everything that writes"
 * counts and offers deletes too, a delete is red like a blocked row (never the green of a create), and the
 * mirror box offers the workbook's entity sheets or says why it offers none, in English and German.
 */
import { describe, expect, it } from 'vitest';
import { actionTone, outcomeTone } from '../../renderer/src/components/format.js';
import { translate } from '../../renderer/src/i18n/index.js';
import { actionFilterChoices, mirrorChoices, writesCount } from '../../renderer/src/screens/import/planView.js';

const overview = (bySheet: Record<string, Record<string, number>>, onlyFailedOf: string | null = null) => ({
  summary: { bySheet, byAction: {}, entries: 0, rows: 0 },
  onlyFailedOf,
});

describe('the dry run’s filter of what writes', () => {
  it('counts and offers deletes among what writes', () => {
    const byAction = { create: 2, update: 1, unchanged: 4, replace: 1, delete: 3, blocked: 1 };
    expect(writesCount(byAction)).toBe(7);
    expect(writesCount({ delete: 2, unchanged: 5 })).toBe(2);
    expect(actionFilterChoices({ delete: 2, unchanged: 5 })).toEqual([
      '',
      'writes',
      'create',
      'update',
      'unchanged',
      'replace',
      'blocked',
      'delete',
    ]);
    // nothing writes: no such choice
    expect(actionFilterChoices({ unchanged: 5 })).not.toContain('writes');
    expect(translate('en', 'plan.writesN', { count: 7 })).toBe(
      'Everything that writes: create, update, BOM, delete (7)',
    );
    expect(translate('de', 'plan.writesN', { count: 7 })).toContain('löschen (7)');
  });

  it('shows a delete as destructive: red, not the green of a create', () => {
    expect(actionTone('delete')).toBe('bad');
    expect(actionTone('create')).toBe('ok');
    expect(actionTone('delete')).not.toBe(actionTone('create'));
    // and so is what a job deleted, in its counts
    expect(outcomeTone('deleted')).toBe('bad');
    expect(outcomeTone('created')).toBe('ok');
  });
});

describe('the mirror box', () => {
  it('offers the entity sheets the workbook has, and a sheet mirrored already', () => {
    const ov = overview({
      'supplier-companies': { create: 1 },
      bom: { replace: 1 },
      'supplier-products': { unchanged: 2 },
    });
    expect(mirrorChoices(ov, [])).toEqual({ sheets: ['supplier-companies', 'supplier-products'], none: null });
    expect(mirrorChoices(ov, ['silos']).sheets).toEqual(['supplier-companies', 'supplier-products', 'silos']);
  });

  it('says why no sheet can be mirrored: no entity sheet in the workbook, or a re-run of failed rows', () => {
    const onlyBom = mirrorChoices(overview({ bom: { replace: 1 }, production: { update: 1 } }), []);
    expect(onlyBom).toEqual({ sheets: [], none: 'no_entity_sheet' });
    const rerun = mirrorChoices(overview({ 'supplier-companies': { create: 1 } }, '20260101-120000-a1b2c3'), []);
    expect(rerun).toEqual({ sheets: [], none: 'only_failed' });
    const sheets = 'supplier-companies, silos';
    expect(translate('en', 'plan.mirrorNoneSheets', { sheets })).toContain('(supplier-companies, silos)');
    expect(translate('de', 'plan.mirrorNoneSheets', { sheets })).toContain('(supplier-companies, silos)');
    expect(translate('de', 'plan.mirrorNoneRerun')).toMatch(/Wiederholung/);
  });
});
