/**
 * The before-state of a product instance a plan deletes, beyond the entity itself: its BOM and its production
 * figures, which the service drops with the instance. They are read at plan time into the delete entry's
 * `before` (`bom`, `production_figures`), so an undo re-creates the instance with both. When either cannot be
 * read, the delete is blocked: an instance is never deleted without what it takes to put it back.
 */
import { ApiError, type ApiClient } from '../../api/index.js';
import type { PlanEntry } from '../types.js';

export async function withInstanceChildren(
  entry: PlanEntry,
  sheetName: string,
  client: ApiClient,
  signal?: AbortSignal,
): Promise<PlanEntry> {
  if (entry.kind !== 'product_instance' || entry.action !== 'delete' || !entry.id || !entry.before) return entry;
  const id = entry.id;
  const read = async <T>(what: string, f: () => Promise<T>): Promise<T | { unreadable: string }> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof ApiError && e.classification !== 'auth' && e.classification !== 'daily_limit')
        return { unreadable: `its ${what} could not be read (${e.err_code}${e.msg ? `: ${e.msg}` : ''})` };
      throw e;
    }
  };
  const [bom, figures] = await Promise.all([
    read('BOM', () => client.bom.get(id, { signal })),
    read('production figures', () => client.productionFigures.get(id, { signal })),
  ]);
  const unreadable = [bom, figures].filter((x): x is { unreadable: string } => !Array.isArray(x));
  if (unreadable.length) {
    const detail = unreadable.map((u) => u.unreadable).join('; ');
    entry.action = 'blocked';
    delete entry.before;
    entry.problems = [
      {
        kind: 'unreadable',
        sheet: sheetName,
        cell: null,
        row: entry.row > 0 ? entry.row : null,
        field: null,
        message: `${entry.label} is not deleted: ${detail}, so an undo could not put it back`,
        code: 'service_unreadable',
        params: { resource: 'product instance', detail },
      },
    ];
    return entry;
  }
  entry.before = {
    ...entry.before,
    bom: (bom as { type: string; ref: string; mass_kg: number }[]).map((c) => ({
      type: c.type,
      ref: String(c.ref).toLowerCase(),
      mass_kg: c.mass_kg,
    })),
    production_figures: (figures as { year: number; quantity: number }[]).map((f) => ({
      year: f.year,
      quantity: f.quantity,
    })),
  };
  return entry;
}
