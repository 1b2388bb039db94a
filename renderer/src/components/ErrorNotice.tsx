import type { RpcError } from '../../../core/ipc/contract.js';
import { describeError } from '../errors.js';
import { useI18n } from '../i18n/index.js';

/** An error in words, with the err_code beside it; never raw JSON or a stack. */
export function ErrorNotice({ error, onDismiss }: { error: RpcError; onDismiss?: () => void }) {
  const { t, locale } = useI18n();
  const e = describeError(error, t, locale);
  return (
    <div className="notice notice-error" role="alert">
      <div className="notice-body">
        <strong>{e.title}</strong>
        {e.errCode && (
          <code className="err-code" title={t('error.errCodeTitle')}>
            {e.errCode}
          </code>
        )}
        {e.detail && <p>{e.detail}</p>}
        {e.action && <p className="notice-action">{e.action}</p>}
        {e.issues.length > 0 && (
          <ul>
            {e.issues.map((i) => (
              <li key={`${i.path}:${i.message}`}>
                {i.path && <span className="issue-path">{i.path}: </span>}
                {i.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {onDismiss && (
        <button type="button" className="btn btn-quiet" onClick={onDismiss}>
          {t('common.dismiss')}
        </button>
      )}
    </div>
  );
}
