/**
 * A refusal of an operation in words (the app layer's rules: no such job, a job that cannot be resumed, a
 * connection that is busy). Each adapter says it its own way: the IPC as an RpcError of the same code
 * (ipc/errors.ts toRpcError), the CLI as a usage error (exit 2) or, for `unavailable`, a stop (exit 3).
 */
export type RefusalKind = 'not_found' | 'invalid_input' | 'unavailable';

export class Refusal extends Error {
  override readonly name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
  }
}
