/**
 * Scopes of API v2 and the one table that maps every operation to the scope it needs.
 * Used by the sandbox to enforce and by the client for its preflight. Decisions on scopes the spec leaves
 * "not shown" are recorded in docs/api-assumptions.md.
 */
import { ENTITY_COLLECTIONS_SPEC, ENTITY_VERBS, type IdentifiedKind } from './entities.js';

export const SCOPES = [
  'view:plants',
  'view:processes',
  'edit:processes',
  'view:materials',
  'edit:materials',
  'view:products',
  'edit:products',
  'view:recipes',
  'edit:recipes',
] as const;
export type Scope = (typeof SCOPES)[number];

type EntityResourceName = (typeof ENTITY_COLLECTIONS_SPEC)[IdentifiedKind]['resource'];
type EntityOperation = `${EntityResourceName}.${(typeof ENTITY_VERBS)[number]}`;

/** Each operation of each entity collection (spec/entities.ts): reads need its `view` scope, writes its `edit`. */
const ENTITY_OPERATION_SCOPES = Object.fromEntries(
  (Object.keys(ENTITY_COLLECTIONS_SPEC) as IdentifiedKind[]).flatMap((k) => {
    const { resource, scopes } = ENTITY_COLLECTIONS_SPEC[k];
    return ENTITY_VERBS.map((verb) => [
      `${resource}.${verb}`,
      verb === 'list' || verb === 'get' ? scopes.view : scopes.edit,
    ]);
  }),
) as Record<EntityOperation, (typeof ENTITY_COLLECTIONS_SPEC)[IdentifiedKind]['scopes']['view' | 'edit']>;

export const OPERATION_SCOPES = {
  'me.get': null,
  'products.list': 'view:products',
  'plants.list': 'view:plants',
  'plants.get': 'view:plants',
  'elementaries.list': 'view:materials',
  'composites.list': 'view:materials',
  'composites.get': 'view:materials',
  ...ENTITY_OPERATION_SCOPES,
  'bom.get': 'view:recipes',
  'bom.put': 'edit:recipes',
  'lca.update': 'edit:products',
  'lca.results': 'view:products',
  'productionFigures.get': 'view:processes',
  'productionFigures.put': 'edit:processes',
} as const satisfies Record<string, Scope | null>;

export type Operation = keyof typeof OPERATION_SCOPES;

export function scopeFor(op: Operation): Scope | null {
  return OPERATION_SCOPES[op];
}

/**
 * The spec's legacy rule: keys issued before `edit:recipes` existed carry it wherever they carry
 * `edit:products`. `legacy` marks such a key.
 */
export function effectiveKeyScopes(stored: readonly string[], legacy: boolean): Set<string> {
  const s = new Set(stored);
  if (legacy && s.has('edit:products')) s.add('edit:recipes');
  return s;
}

/** A key never exceeds its issuing member: the effective set is the intersection, recomputed per request. */
export function capScopes(keyScopes: Iterable<string>, memberScopes: Iterable<string>): string[] {
  const member = new Set(memberScopes);
  return [...keyScopes].filter((s) => member.has(s)).sort();
}

/** plant_ids null means "all plants". Returns the effective reachable plant ids (null = all). */
export function capPlants(
  keyPlants: readonly string[] | null,
  memberPlants: readonly string[] | null,
): string[] | null {
  if (keyPlants === null) return memberPlants === null ? null : [...memberPlants];
  if (memberPlants === null) return [...keyPlants];
  const m = new Set(memberPlants);
  return keyPlants.filter((p) => m.has(p));
}
