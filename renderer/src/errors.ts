/** Turn a failed call into words for the user: the localized kind, the detail, and the err_code beside it. */
import type { RpcError } from '../../core/ipc/contract.js';
import { RpcFailure } from './api.js';
import { errCodeText } from './i18n/core-text.js';
import { undoRefusalText } from './i18n/undo-notes.js';
import type { Locale, T } from './i18n/index.js';

export interface ErrorText {
  title: string;
  detail: string | null;
  action: string | null;
  errCode: string | null;
  issues: { path: string; message: string }[];
}

export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcFailure) return err.error;
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export function describeError(error: RpcError, t: T, locale: Locale): ErrorText {
  const title = t(`error.${error.code}`);
  if (error.errCode) {
    const info = errCodeText(error.errCode, locale);
    if (info.known) {
      return {
        title,
        detail: info.explanation,
        action: info.action,
        errCode: error.errCode,
        issues: [],
      };
    }
    // An err_code the catalog does not know: kept verbatim, with the service's own words, never retried.
    return {
      title,
      detail: t('error.unknownCode', { message: error.message }),
      action: info.action,
      errCode: error.errCode,
      issues: [],
    };
  }
  // a refusal of the core known by its shape, in the UI's words
  const detail = error.message ? (undoRefusalText(error.message, locale) ?? error.message) : null;
  return { title, detail, action: null, errCode: null, issues: error.issues ?? [] };
}
