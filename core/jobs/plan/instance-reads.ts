/** Reads per product instance before planning (BOMs, production figures): one GET each, 8 at a time. */
import { forEachPooled } from '../pool.js';
import type { ServiceIndex } from '../resolve.js';
import { rawCode, type WorkbookRows } from '../workbook-rows.js';

/**
 * Read something of every instance on the service that a sheet's rows name. An error `unreadable` words is kept
 * as the instance's `{unreadable}` (the rows are then planned without it); any other stops planning.
 */
export async function readPerInstance<V>(
  wb: WorkbookRows,
  svc: ServiceIndex,
  sheet: 'bom' | 'production',
  signal: AbortSignal | undefined,
  read: (id: string) => Promise<V>,
  unreadable: (e: unknown) => string | undefined,
  progress?: (done: number, total: number) => void,
): Promise<Map<string, V | { unreadable: string }>> {
  const out = new Map<string, V | { unreadable: string }>();
  const ids = new Set<string>();
  for (const r of wb.rows(sheet)) {
    const code = rawCode(r, 'product_instance_external_id');
    const inst = code ? svc.product_instance.get(code) : undefined;
    if (inst) ids.add(inst.id.toLowerCase());
  }
  const list = [...ids];
  let done = 0;
  progress?.(done, list.length);
  let fatal: unknown;
  await forEachPooled(
    list,
    8,
    async (id) => {
      try {
        out.set(id, await read(id));
      } catch (e) {
        const why = unreadable(e);
        if (why !== undefined) out.set(id, { unreadable: why });
        else fatal ??= e;
      }
      progress?.(++done, list.length);
    },
    () => fatal !== undefined || signal?.aborted === true,
  );
  if (fatal !== undefined) throw fatal;
  signal?.throwIfAborted();
  return out;
}
