/**
 * The entity table (spec/entities.ts, extended by jobs/entities.ts) is complete: every entity kind has every
 * fact, the facts agree with the API contract's tables (scopes, err_codes, schemas), and the sheets of the
 * kinds are exactly the workbook registry's data sheets other than the code-mapping sheets.
 */
import { describe, expect, it } from 'vitest';
import { ENTITIES, IDENTIFIED_KINDS, isUserKind, USER_KINDS, userKindsOf } from '../../core/jobs/entities.js';
import { ENTITY_KINDS, ENTITY_SHEET_NAMES, type EntityKind } from '../../core/names.js';
import { ENTITY_COLLECTIONS_SPEC, ENTITY_VERBS } from '../../core/spec/entities.js';
import { ERR_CODES } from '../../core/spec/err-codes.js';
import { OPERATION_SCOPES, SCOPES } from '../../core/spec/scopes.js';
import { getSheet, isDataSheetName } from '../../core/workbook/registry.js';
import { CODE_MAPPING_SHEETS, DATA_SHEET_NAMES } from '../../core/workbook/types.js';

/** The facts every kind has, and the ones every identified kind (an entity of its own) has besides. */
const KIND_FACTS = ['level', 'sheet', 'childSheets', 'noun', 'nouns', 'uses'] as const;
const IDENTIFIED_FACTS = [
  ...KIND_FACTS,
  'deleteLevel',
  'resource',
  'path',
  'entity',
  'create',
  'patch',
  'entityType',
  'serverIdempotent',
  'scopes',
  'inUseCodes',
  'inUse',
  'snapshot',
] as const;

type Row = Record<string, unknown>;
const row = (k: EntityKind): Row => ENTITIES[k] as unknown as Row;
const identified = (k: EntityKind): boolean => (IDENTIFIED_KINDS as readonly string[]).includes(k);

/** The facts a row of the table lacks (absent or undefined). */
function missingFacts(kind: EntityKind, r: Row): string[] {
  const facts: readonly string[] = identified(kind) ? IDENTIFIED_FACTS : KIND_FACTS;
  return facts.filter((f) => !(f in r) || r[f] === undefined);
}

describe('the entity table', () => {
  it('has a row for every entity kind and no other, in the order of ENTITY_KINDS', () => {
    expect(Object.keys(ENTITIES)).toEqual([...ENTITY_KINDS]);
    expect(IDENTIFIED_KINDS).toEqual(ENTITY_KINDS.filter((k) => k !== 'bom' && k !== 'production'));
    expect(Object.keys(ENTITY_COLLECTIONS_SPEC)).toEqual(IDENTIFIED_KINDS);
  });

  it('gives every kind every fact', () => {
    for (const k of ENTITY_KINDS) expect(missingFacts(k, row(k)), k).toEqual([]);
  });

  it('reports a kind that lacks a fact', () => {
    for (const k of ENTITY_KINDS) {
      const facts = identified(k) ? IDENTIFIED_FACTS : KIND_FACTS;
      for (const f of facts) {
        const { [f]: _dropped, ...rest } = row(k);
        expect(missingFacts(k, rest), `${k} without ${f}`).toEqual([f]);
      }
    }
  });

  it('has facts of the right shape', () => {
    for (const k of ENTITY_KINDS) {
      const e = ENTITIES[k];
      expect(Number.isInteger(e.level), k).toBe(true);
      expect(e.noun.length && e.nouns.length, k).toBeTruthy();
      if (e.uses !== null) expect(typeof e.uses.field, k).toBe('string');
    }
    const maxLevel = Math.max(...ENTITY_KINDS.map((k) => ENTITIES[k].level));
    for (const k of IDENTIFIED_KINDS) {
      const e = ENTITIES[k];
      expect(e.entityType, k).toBe(k);
      expect(e.deleteLevel, k).toBeGreaterThan(maxLevel);
      expect(e.path, k).toMatch(/^\/v2\/[a-z-]+$/);
      expect(typeof e.serverIdempotent, k).toBe('boolean');
      expect(e.snapshot, k).toContain('external_id');
      for (const f of e.snapshot) expect(Object.keys(e.entity.shape), `${k}.${f}`).toContain(f);
    }
    // Deletes run in reverse dependency order.
    const deletes = IDENTIFIED_KINDS.map((k) => ENTITIES[k].deleteLevel);
    expect(deletes).toEqual([...deletes].sort((a, b) => b - a));
  });

  it('names scopes of the contract, and every operation of every collection is in the scope table', () => {
    for (const k of IDENTIFIED_KINDS) {
      const { resource, scopes } = ENTITIES[k];
      expect(SCOPES, k).toContain(scopes.view);
      expect(SCOPES, k).toContain(scopes.edit);
      for (const verb of ENTITY_VERBS) {
        const op = `${resource}.${verb}` as keyof typeof OPERATION_SCOPES;
        expect(OPERATION_SCOPES[op], op).toBe(verb === 'list' || verb === 'get' ? scopes.view : scopes.edit);
      }
    }
  });

  it('names in-use err_codes of the catalog, each with the kinds of users to read', () => {
    for (const k of IDENTIFIED_KINDS) {
      const e = ENTITIES[k];
      expect(e.inUseCodes.length, k).toBeGreaterThan(0);
      expect(Object.keys(e.inUse), k).toEqual([...e.inUseCodes]);
      for (const code of e.inUseCodes) expect(ERR_CODES.has(code), code).toBe(true);
      for (const users of Object.values(e.inUse) as readonly EntityKind[][])
        for (const u of users) expect(isUserKind(u), `${k}: ${u}`).toBe(true);
    }
    expect(USER_KINDS).toEqual(['bom', 'silo', 'prechain_product', 'supplier_product', 'supplier_plant']);
    expect(userKindsOf('supplier_product')).toEqual(['bom', 'silo']);
  });

  it('maps every data sheet of the registry but the code-mapping sheets to exactly one kind, and back', () => {
    const sheetsOfKinds = ENTITY_KINDS.flatMap((k) => [ENTITIES[k].sheet, ...ENTITIES[k].childSheets]);
    const registry = DATA_SHEET_NAMES.filter((s) => !(CODE_MAPPING_SHEETS as readonly string[]).includes(s));
    expect([...sheetsOfKinds].sort()).toEqual([...registry].sort());
    for (const s of sheetsOfKinds) {
      expect(isDataSheetName(s), s).toBe(true);
      expect(getSheet(s).name).toBe(s);
    }
    // The entity sheets are the identified kinds' own sheets, in the same order.
    expect(IDENTIFIED_KINDS.map((k) => ENTITIES[k].sheet)).toEqual([...ENTITY_SHEET_NAMES]);
  });
});
