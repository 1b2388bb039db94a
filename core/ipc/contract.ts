/**
 * The contract as the IPC serves it: everything of the renderer ↔ main contract (core/contract/), and
 * the type of the handler table that serves it, generic over the host's services.
 */
import type { z } from 'zod';
import type { ProcedureName } from '../contract/names.js';
import type { ParsedInput, Procedures } from '../contract/index.js';

export * from '../contract/index.js';

/**
 * The handler of a procedure: its parsed input and the services of the host (`S`: app/services.ts AppServices)
 * → its output (parsed again by dispatch before it leaves). One table of them serves both transports.
 */
export type Handler<N extends ProcedureName, S> = (
  input: ParsedInput<N>,
  app: S,
) => Promise<z.input<Procedures[N]['output']>>;
export type HandlerTable<S> = { [N in ProcedureName]: Handler<N, S> };
/** The handlers of one namespace (`N`: its procedure names). */
export type NamespaceHandlers<N extends ProcedureName, S> = { [K in N]: Handler<K, S> };
