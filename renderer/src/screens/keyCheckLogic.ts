/**
 * The buttons of the key check, by what the check found: "Use this connection" is the main action only for a key
 * the service answered for; after a failed check (the service could not be reached, a timeout) the main action is
 * to check again, and a key the service refused (401) is never offered for use.
 */
export interface KeyCheckButtons {
  /** how "Use this connection" is shown; null: not offered */
  use: 'primary' | 'secondary' | null;
  /** how "Check again" is shown */
  again: 'primary' | 'secondary';
}

export function keyCheckButtons(s: {
  isActive: boolean;
  checked: boolean;
  error: { status?: number | null } | null;
}): KeyCheckButtons {
  if (s.error) return { use: s.isActive || s.error.status === 401 ? null : 'secondary', again: 'primary' };
  return { use: s.isActive ? null : s.checked ? 'primary' : 'secondary', again: 'secondary' };
}
