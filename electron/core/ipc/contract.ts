/**
 * The renderer ↔ main contract: one map procedure name → {input, output} zod schemas, and one map of event
 * name → payload schema (progress streams), put together from one module per namespace (`contract/`:
 * connection, templates, import, jobs, export, lca). Both transports (Electron IPC in electron/main/ipc.ts and
 * the loopback HTTP server of browser mode in http-server.ts) serve exactly this surface through dispatch.ts;
 * test/ipc/surface.test.ts snapshots it so that adding or widening a procedure is a visible, reviewed change.
 *
 * Inputs are strict (unknown fields refused); outputs are parsed before they leave the main side, which also
 * strips anything a handler returned that the contract does not name (an API key can never ride along).
 */
import { z } from 'zod';
import type { EventName, ProcedureName } from './names.js';
import type { ProcedureDef } from './contract/common.js';
import { connectionEvents, connectionProcedures } from './contract/connection.js';
import { exportEvents, exportProcedures } from './contract/export.js';
import { importEvents, importProcedures } from './contract/import.js';
import { jobsEvents, jobsProcedures } from './contract/jobs.js';
import { lcaEvents, lcaProcedures } from './contract/lca.js';
import { templatesEvents, templatesProcedures } from './contract/templates.js';

export * from './contract/common.js';
export * from './contract/connection.js';
export * from './contract/templates.js';
export * from './contract/import.js';
export * from './contract/jobs.js';
export * from './contract/export.js';
export * from './contract/lca.js';

export const procedures = {
  ...connectionProcedures,
  ...templatesProcedures,
  ...importProcedures,
  ...jobsProcedures,
  ...exportProcedures,
  ...lcaProcedures,
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
const noStray: Record<Exclude<keyof typeof procedures, ProcedureName> | Exclude<keyof typeof events, EventName>, never> = {};
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

/**
 * The handler of a procedure: its parsed input and the services of the host (`S`: ipc/services.ts AppServices)
 * → its output (parsed again by dispatch before it leaves). One table of them serves both transports.
 */
export type Handler<N extends ProcedureName, S> = (input: ParsedInput<N>, app: S) => Promise<z.input<Procedures[N]['output']>>;
export type HandlerTable<S> = { [N in ProcedureName]: Handler<N, S> };
/** The handlers of one namespace (`N`: its procedure names). */
export type NamespaceHandlers<N extends ProcedureName, S> = { [K in N]: Handler<K, S> };

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
