/**
 * The names of the renderer ↔ main surface, without schemas, so the preload (which must stay tiny and cannot
 * load zod) gets the same allowlist as the contract. index.ts checks at compile time that it defines a
 * schema for exactly these names.
 */
export const PROCEDURE_NAMES = [
  // (each namespace's schemas are in contract/<namespace>.ts: connection, templates, import, jobs, export, lca)
  'app.info',
  'settings.get',
  'settings.update',
  'profiles.list',
  'profiles.save',
  'profiles.delete',
  'profiles.select',
  'sandbox.status',
  'sandbox.reset',
  'connection.check',
  'templates.list',
  'templates.generate',
  'files.pickWorkbook',
  'files.upload',
  'files.takeOpened',
  'import.validate',
  'import.columns',
  'import.columnsPreview',
  'mappings.list',
  'mappings.save',
  'import.plan',
  'import.planRows',
  'import.run',
  'import.cancel',
  'import.close',
  'jobs.list',
  'jobs.get',
  'jobs.rows',
  'jobs.pause',
  'jobs.cancel',
  'jobs.resume',
  'jobs.undoPlan',
  'jobs.undo',
  'jobs.resultsWorkbook',
  'jobs.failedWorkbook',
  'downloads.save',
  'downloads.open',
  'export.run',
  'lca.options',
  'lca.select',
  'lca.run',
  'lca.report',
  'lca.analysis',
  'lca.enterProduction',
  'lca.cancel',
  'lca.export',
  'lca.impactDryRun',
  'lca.impact',
  'lca.impactRecompute',
  'lca.impactCancel',
] as const;
export type ProcedureName = (typeof PROCEDURE_NAMES)[number];

export const EVENT_NAMES = [
  'profiles.changed',
  'sandbox.changed',
  'files.opened',
  'import.progress',
  'jobs.progress',
  'jobs.changed',
  'lca.progress',
  'lca.changed',
  'export.progress',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

const procedureSet: ReadonlySet<string> = new Set(PROCEDURE_NAMES);
const eventSet: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isProcedureName(name: unknown): name is ProcedureName {
  return typeof name === 'string' && procedureSet.has(name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && eventSet.has(name);
}

/** Electron IPC channels: one per procedure and per event, never a generic pass-through channel. */
export const procedureChannel = (name: ProcedureName): string => `supply-loader:rpc:${name}`;
export const eventChannel = (name: EventName): string => `supply-loader:event:${name}`;
