import { useEffect, useState } from 'react';
import type { ProcedureOutput } from '../../../electron/core/ipc/contract.js';
import { useApi } from '../ApiContext.js';
import { useI18n } from '../i18n/index.js';

type ProfilesState = ProcedureOutput<'profiles.list'>;

/** Always visible: which connection the app talks to (the user should never wonder where data goes). */
export function ConnectionBadge({ onOpen }: { onOpen(): void }) {
  const api = useApi();
  const { t } = useI18n();
  const [state, setState] = useState<ProfilesState | null>(null);

  useEffect(() => {
    let live = true;
    const refresh = () => void api.call('profiles.list', {}).then((s) => live && setState(s), () => {});
    refresh();
    const offP = api.on('profiles.changed', (s) => setState(s));
    const offS = api.on('sandbox.changed', refresh);
    return () => {
      live = false;
      offP();
      offS();
    };
  }, [api]);

  const active = state?.profiles.find((p) => p.profileId === state.activeProfileId);
  if (!active) return null;
  return (
    <button type="button" className="connection-badge" onClick={onOpen}>
      <span className="connection-badge-label">{t('app.activeConnection')}</span>
      <span className="connection-badge-name">{active.name}</span>
      <span className="connection-badge-url">{active.baseUrl ?? t('connection.sandboxNotRunning')}</span>
    </button>
  );
}
