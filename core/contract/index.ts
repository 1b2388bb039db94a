/**
 * The renderer ↔ main contract: one map procedure name → {input, output} zod schemas, and one map of event
 * name → payload schema (progress streams), put together from one module per namespace (connection,
 * templates, import, jobs, export, lca), and the error half of every response. It imports nothing above the
 * engine's schemas, so the app layer (its views and events) and the adapters both take it from here. Both
 * transports (Electron IPC in electron/main/ipc.ts and the loopback HTTP server of browser mode in
 * ipc/http-server.ts) serve exactly this surface through ipc/dispatch.ts; test/ipc/surface.test.ts snapshots it
 * so that adding or widening a procedure is a visible, reviewed change.
 *
 * Inputs are strict (unknown fields refused); outputs are parsed before they leave the main side, which also
 * strips anything a handler returned that the contract does not name (an API key can never ride along).
 */
import { z } from 'zod';
import type { EventName, ProcedureName } from './names.js';
import type { ProcedureDef } from './common.js';
import { connectionEvents, connectionProcedures } from './connection.js';
import { exportEvents, exportProcedures } from './export.js';
import { importEvents, importProcedures } from './import.js';
import { jobsEvents, jobsProcedures } from './jobs.js';
import { lcaEvents, lcaProcedures } from './lca.js';
import { lcaImpactProcedures } from './lca-impact.js';
import { templatesEvents, templatesProcedures } from './templates.js';

export * from './common.js';
export * from './connection.js';
export * from './templates.js';
export * from './import.js';
export * from './jobs.js';
export * from './export.js';
export * from './lca.js';
export * from './lca-impact.js';

export const procedures = {
  ...connectionProcedures,
  ...templatesProcedures,
  ...importProcedures,
  ...jobsProcedures,
  ...exportProcedures,
  ...lcaProcedures,
  ...lcaImpactProcedures,
} as const satisfies Record<ProcedureName, ProcedureDef>;

export const events = {
  ...connectionEvents,
  ...templatesEvents,
  ...importEvents,
  ...jobsEvents,
  ...exportEvents,
  ...lcaEvents,
} as const satisfies Record<EventName, z.ZodType>;

/** Not one name more than names.ts's (the preload's allowlist): a procedure or event of no name fails here. */
const noStray: Record<
  Exclude<keyof typeof procedures, ProcedureName> | Exclude<keyof typeof events, EventName>,
  never
> = {};
void noStray;

export type Procedures = typeof procedures;
export type Events = typeof events;
/** What a caller passes (before defaults). */
export type ProcedureInput<N extends ProcedureName> = z.input<Procedures[N]['input']>;
/** What a handler receives (after parsing and defaults). */
export type ParsedInput<N extends ProcedureName> = z.output<Procedures[N]['input']>;
/** What a caller receives. */
export type ProcedureOutput<N extends ProcedureName> = z.output<Procedures[N]['output']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

/** The error half of every response, the same on both transports. Messages are words, never stacks. */
export const RpcErrorCode = z.enum([
  'invalid_input', // the input failed the contract's schema; `issues` says where
  'unknown_procedure',
  'forbidden', // the sender or request is not allowed (wrong frame, token, origin or host)
  'not_found', // a profile (or other local thing) does not exist
  'unavailable', // a needed part is not running (e.g. the embedded sandbox failed to start)
  'api_error', // the service answered with an error; errCode and status say which
  'network_error', // the service could not be reached
  'internal', // a bug: details are in the main-process log, not shown
]);
export type RpcErrorCode = z.infer<typeof RpcErrorCode>;

export const RpcError = z.object({
  code: RpcErrorCode,
  message: z.string(),
  errCode: z.string().optional(),
  status: z.number().int().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type RpcError = z.infer<typeof RpcError>;

export type RpcResult<T = unknown> = { ok: true; data: T } | { ok: false; error: RpcError };
