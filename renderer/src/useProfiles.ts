/**
 * The connection profiles as the main side has them, once for every screen that names the active connection
 * (Connection, Templates, Export, the badge): read when shown, then kept current from `profiles.changed`, and
 * read again when the sandbox changes (the built-in profile's address is the sandbox's).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ProcedureOutput } from '../../core/ipc/contract.js';
import { useApi } from './ApiContext.js';

export type ProfilesState = ProcedureOutput<'profiles.list'>;
export type ProfileView = ProfilesState['profiles'][number];

/** The active profile of a state, or null (none yet, or none active). */
export function activeProfile(state: ProfilesState | null): ProfileView | null {
  return state?.profiles.find((p) => p.profileId === state.activeProfileId) ?? null;
}

export interface Profiles {
  /** null until first read */
  profiles: ProfilesState | null;
  active: ProfileView | null;
  /** Read them again (after a change the main side announces no event for). */
  reload(): void;
  /** Take a state a call answered with (profiles.select). */
  set(state: ProfilesState): void;
}

/**
 * `fail`: where a failed read is shown. Without it (the badge, which has no room for a notice) a failed read
 * leaves the last state; the Connection screen reads the same list and shows the failure.
 */
export function useProfiles(fail?: (e: unknown) => void): Profiles {
  const api = useApi();
  const [profiles, setProfiles] = useState<ProfilesState | null>(null);
  const reload = useCallback(() => {
    void api.call('profiles.list', {}).then(setProfiles, (e: unknown) => fail?.(e));
  }, [api, fail]);

  useEffect(() => {
    reload();
    const offP = api.on('profiles.changed', setProfiles);
    const offS = api.on('sandbox.changed', reload);
    return () => {
      offP();
      offS();
    };
  }, [api, reload]);

  return { profiles, active: activeProfile(profiles), reload, set: setProfiles };
}
