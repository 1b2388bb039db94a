import { useCallback, useEffect, useId, useState } from 'react';
import type { FormEvent, InputHTMLAttributes } from 'react';
import type { ProcedureOutput } from '../../../core/ipc/contract.js';
import type { KeyStoreWarning } from '../../../core/names.js';
import { useApi } from '../ApiContext.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { Notice } from '../components/Notice.js';
import { useI18n } from '../i18n/index.js';
import type { T } from '../i18n/index.js';
import { validateProfileForm } from '../profileForm.js';
import { KeyCheck } from './KeyCheck.js';
import type { ProfileFormErrors, ProfileFormValues } from '../profileForm.js';
import { useProfiles, type ProfileView } from '../useProfiles.js';
import { useRpc } from '../useRpc.js';
import { Facts } from '../components/Facts.js';

type SandboxStatus = ProcedureOutput<'sandbox.status'>;
type AppInfo = ProcedureOutput<'app.info'>;

export function ConnectionScreen() {
  const api = useApi();
  const { t } = useI18n();
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [sandbox, setSandbox] = useState<SandboxStatus | null>(null);
  const rpc = useRpc();
  const { run: runRpc } = rpc;
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);
  /** the profile whose key is shown checked: the active one, or the one just saved */
  const [checkedId, setCheckedId] = useState<string | null>(null);

  const { profiles, active, reload, set: setProfiles } = useProfiles(rpc.fail);

  useEffect(() => {
    void api.call('app.info', {}).then(setInfo, rpc.fail);
    void api.call('sandbox.status', {}).then(setSandbox, rpc.fail);
    return api.on('sandbox.changed', setSandbox);
  }, [api, rpc.fail]);

  const select = useCallback(
    async (profileId: string) => {
      const p = await runRpc(() => api.call('profiles.select', { profileId }));
      if (!p) return;
      setProfiles(p);
      setCheckedId(null);
    },
    [api, runRpc, setProfiles],
  );

  const checked = profiles?.profiles.find((p) => p.profileId === (checkedId ?? profiles.activeProfileId)) ?? active;

  return (
    <div className="stack">
      <p className="lead">{t('connection.intro')}</p>
      {info?.secretStorage.warning && <SecretStorageWarning warning={info.secretStorage.warning} t={t} />}
      {rpc.notice}

      <section className="card" aria-labelledby="profiles-heading">
        <div className="card-head">
          <h2 id="profiles-heading">{t('connection.profiles')}</h2>
          <button type="button" className="btn" onClick={() => setEditing('new')}>
            {t('connection.newProfile')}
          </button>
        </div>
        {!profiles ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : (
          <ul className="profile-list" aria-label={t('connection.profiles')}>
            {profiles.profiles.map((p) => (
              <ProfileRow
                key={p.profileId}
                profile={p}
                active={p.profileId === profiles.activeProfileId}
                onSelect={() => void select(p.profileId)}
                onEdit={() => setEditing(p)}
              />
            ))}
          </ul>
        )}
      </section>

      {editing && (
        <ProfileEditor
          key={editing === 'new' ? 'new' : editing.profileId}
          profile={editing === 'new' ? null : editing}
          keysEncrypted={info?.secretStorage.encrypted ?? false}
          onDone={(saved) => {
            setEditing(null);
            if (saved) {
              setCheckedId(saved.hasKey ? saved.profileId : null);
              reload();
            }
          }}
        />
      )}

      {checked && !checked.hasKey && !checked.builtIn && (
        <Notice kind="info">{t('connection.noKeyHint', { name: checked.name })}</Notice>
      )}
      {checked && checked.hasKey && (
        <KeyCheck
          profileId={checked.profileId}
          profileName={checked.name}
          isActive={checked.profileId === profiles?.activeProfileId}
          onUse={() => void select(checked.profileId)}
          revision={`${checked.baseUrl ?? ''}|${checked.maskedKey ?? ''}|${sandbox?.manufacturerId ?? ''}`}
        />
      )}

      {active?.builtIn && <SandboxCard status={sandbox} />}
    </div>
  );
}

function SecretStorageWarning({ warning, t }: { warning: KeyStoreWarning; t: T }) {
  const key =
    warning === 'basic_text'
      ? 'connection.keysBasicText'
      : warning === 'plain_file'
        ? 'connection.keysPlainFile'
        : 'connection.keysUnavailable';
  return <Notice kind="warning">{t(key)}</Notice>;
}

function ProfileRow({
  profile,
  active,
  onSelect,
  onEdit,
}: {
  profile: ProfileView;
  active: boolean;
  onSelect(): void;
  onEdit(): void;
}) {
  const { t } = useI18n();
  const labelId = useId();
  return (
    <li className={`profile-row${active ? ' is-active' : ''}`} aria-labelledby={labelId}>
      <div className="profile-main">
        <div className="profile-name" id={labelId}>
          {profile.name}
          {profile.builtIn && <span className="tag">{t('connection.builtIn')}</span>}
          {active && <span className="tag tag-active">{t('connection.active')}</span>}
        </div>
        <div className="profile-meta">
          <span>{profile.baseUrl ?? t('connection.sandboxNotRunning')}</span>
          <span>
            {profile.hasKey ? (
              <>
                <span className="visually-hidden">{t('connection.apiKey')}: </span>
                <code>{profile.maskedKey}</code>
              </>
            ) : (
              t('connection.noKey')
            )}
          </span>
        </div>
      </div>
      <div className="profile-actions">
        {!active && (
          <button
            type="button"
            className="btn"
            onClick={onSelect}
            aria-label={t('connection.useProfileNamed', { name: profile.name })}
          >
            {t('connection.use')}
          </button>
        )}
        {!profile.builtIn && (
          <button
            type="button"
            className="btn btn-quiet"
            onClick={onEdit}
            aria-label={t('connection.editProfileNamed', { name: profile.name })}
          >
            {t('common.edit')}
          </button>
        )}
      </div>
    </li>
  );
}

function ProfileEditor({
  profile,
  keysEncrypted,
  onDone,
}: {
  profile: ProfileView | null;
  keysEncrypted: boolean;
  /** the saved profile, or null when cancelled or deleted */
  onDone(saved: ProfileView | null): void;
}) {
  const api = useApi();
  const { t } = useI18n();
  const [values, setValues] = useState<ProfileFormValues>({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? 'https://',
    apiKey: '',
  });
  const [removeKey, setRemoveKey] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<ProfileFormErrors>({});
  const rpc = useRpc();
  const busy = rpc.busy !== null;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const ids: Record<keyof ProfileFormValues, string> = { name: useId(), baseUrl: useId(), apiKey: useId() };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validateProfileForm(values, { keyRequired: false });
    setFieldErrors(errs);
    if (Object.keys(errs).length > 0) return;
    const saved = await rpc.run(() =>
      api.call('profiles.save', {
        profileId: profile?.profileId,
        name: values.name.trim(),
        baseUrl: values.baseUrl.trim(),
        ...(values.apiKey.trim() ? { apiKey: values.apiKey.trim() } : {}),
        ...(removeKey && !values.apiKey.trim() ? { removeKey: true } : {}),
      }),
    );
    if (!saved) return;
    setValues((v) => ({ ...v, apiKey: '' }));
    onDone(saved);
  };

  const remove = async () => {
    if (!profile) return;
    const deleted = await rpc.run(async () => {
      await api.call('profiles.delete', { profileId: profile.profileId });
      return true;
    });
    if (deleted) onDone(null);
  };

  const fieldError = (k: keyof ProfileFormErrors) => {
    const code = fieldErrors[k];
    return code ? t(`profileForm.${code}`) : null;
  };

  /** One field of the form: its label, the input, a hint (described by) and its error in words. */
  const field = (
    k: keyof ProfileFormValues,
    label: string,
    input: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
    <div className="field">
      <label htmlFor={ids[k]}>{label}</label>
      <input
        id={ids[k]}
        value={values[k]}
        onChange={(e) => setValues({ ...values, [k]: e.target.value })}
        aria-invalid={fieldErrors[k] ? true : undefined}
        aria-describedby={hint ? `${ids[k]}-hint` : undefined}
        autoComplete="off"
        {...input}
      />
      {hint && (
        <p className="field-hint" id={`${ids[k]}-hint`}>
          {hint}
        </p>
      )}
      {fieldError(k) && <p className="field-error">{fieldError(k)}</p>}
    </div>
  );

  return (
    <section className="card" aria-labelledby="editor-heading">
      <h2 id="editor-heading">
        {profile ? t('connection.editProfile', { name: profile.name }) : t('connection.newProfile')}
      </h2>
      {rpc.notice}
      {rpc.error?.status === 401 && <p className="field-error">{t('connection.keyRefusedNotSaved')}</p>}
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        {field('name', t('connection.profileName'), { required: true })}
        {field('baseUrl', t('connection.baseUrl'), { inputMode: 'url', spellCheck: false, required: true })}
        {field(
          'apiKey',
          t('connection.apiKey'),
          {
            type: 'password',
            spellCheck: false,
            placeholder: profile?.hasKey
              ? t('connection.keyKeepPlaceholder', { masked: profile.maskedKey ?? '' })
              : 'svc-…',
          },
          keysEncrypted ? t('connection.keyHintEncrypted') : t('connection.keyHintFile'),
        )}
        {profile?.hasKey && (
          <label className="checkbox">
            <input type="checkbox" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} />
            <span>{t('connection.removeKey')}</span>
          </label>
        )}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('common.save')}
          </button>
          <button type="button" className="btn btn-quiet" onClick={() => onDone(null)} disabled={busy}>
            {t('common.cancel')}
          </button>
          {profile && !confirmDelete && (
            <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)} disabled={busy}>
              {t('common.delete')}
            </button>
          )}
        </div>
        {profile && confirmDelete && (
          <div className="confirm" role="group" aria-label={t('connection.deleteConfirm', { name: profile.name })}>
            <p>{t('connection.deleteConfirm', { name: profile.name })}</p>
            <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy}>
              {t('common.delete')}
            </button>
            <button type="button" className="btn btn-quiet" onClick={() => setConfirmDelete(false)}>
              {t('common.cancel')}
            </button>
          </div>
        )}
      </form>
    </section>
  );
}

function SandboxCard({ status }: { status: SandboxStatus | null }) {
  const api = useApi();
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const rpc = useRpc();
  const busy = rpc.busy !== null;
  const [done, setDone] = useState(false);

  const reset = () =>
    rpc.run(async () => {
      setDone(false);
      await api.call('sandbox.reset', { seed: 'demo' });
      setDone(true);
      setConfirming(false);
    });

  const state = status?.state ?? 'starting';
  return (
    <section className="card" aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">{t('sandbox.title')}</h2>
      <p>{t('sandbox.explain')}</p>
      <Facts
        facts={[
          [t('sandbox.state'), <span className={`status status-${state}`}>{t(`sandbox.state.${state}`)}</span>],
          status?.baseUrl && [t('connection.baseUrl'), <code>{status.baseUrl}</code>],
          status?.maskedKey && [t('connection.apiKey'), <code>{status.maskedKey}</code>],
        ]}
      />
      {status?.state === 'failed' && status.message && (
        <ErrorNotice error={{ code: 'unavailable', message: status.message }} />
      )}
      {rpc.notice}
      {done && <Notice kind="success">{t('sandbox.resetDone')}</Notice>}
      {!confirming ? (
        <button type="button" className="btn" onClick={() => setConfirming(true)} disabled={state !== 'running'}>
          {t('sandbox.reset')}
        </button>
      ) : (
        <div className="confirm" role="group" aria-label={t('sandbox.resetConfirm')}>
          <p>{t('sandbox.resetConfirm')}</p>
          <button type="button" className="btn btn-danger" onClick={() => void reset()} disabled={busy}>
            {t('sandbox.resetNow')}
          </button>
          <button type="button" className="btn btn-quiet" onClick={() => setConfirming(false)} disabled={busy}>
            {t('common.cancel')}
          </button>
        </div>
      )}
    </section>
  );
}
