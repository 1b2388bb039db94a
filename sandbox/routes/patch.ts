/** PATCH (an assumption: docs/api-assumptions.md): a partial update of the create fields; absent fields keep their value. */
export function applyPatch<T extends object>(current: T, patch: Record<string, unknown>): T {
  const next = { ...current } as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) next[k] = v;
  return next as T;
}
