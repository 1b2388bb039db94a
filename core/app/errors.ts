/**
 * An operation of the app refused or stopped in words (no such job, a job that cannot be resumed, a connection
 * that is busy, a file that is gone, a key the service refuses). Each adapter says it its own way: the IPC as an
 * RpcError of the same code (ipc/errors.ts toRpcError), the CLI as a usage error (exit 2) or, for `unavailable`
 * and `api_error`, a stop (exit 3) (cli/shared/errors.ts describeError).
 */
export type AppErrorCode = 'not_found' | 'invalid_input' | 'unavailable' | 'forbidden' | 'api_error';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** the service's err_code and HTTP status, when the refusal is the service's */
    readonly extra: { errCode?: string; status?: number } = {},
  ) {
    super(message);
  }
}
