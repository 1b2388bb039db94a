import { useI18n } from '../i18n/index.js';
import { useProfiles } from '../useProfiles.js';

/** Always visible: which connection the app talks to (the user should never wonder where data goes). */
export function ConnectionBadge({ onOpen }: { onOpen(): void }) {
  const { t } = useI18n();
  const { active } = useProfiles();

  if (!active) return null;
  return (
    <button type="button" className="connection-badge" onClick={onOpen}>
      <span className="connection-badge-label">{t('app.activeConnection')}</span>
      <span className="connection-badge-name">{active.name}</span>
      <span className="connection-badge-url">{active.baseUrl ?? t('connection.sandboxNotRunning')}</span>
    </button>
  );
}
