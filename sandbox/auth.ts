/**
 * API keys of the sandbox: `svc-{key_id}-{secret}`, only sha256(secret) stored, one uniform 401 for every
 * failure. The effective scopes and plants are the key's, capped by its issuing member, recomputed on every
 * request (so reducing a member takes effect at once).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN } from '../core/spec/constants.js';
import { capPlants, capScopes, effectiveKeyScopes } from '../core/spec/scopes.js';
import { notAuthenticated } from './errors.js';

export interface ApiKeyRecord {
  key_id: string;
  secret_sha256: string;
  owner_profile_id: string;
  scopes: string[];
  /** null = all plants. */
  plant_ids: string[] | null;
  expires_at: string | null;
  legacy: boolean;
  revoked_at: string | null;
  created_at: string;
}

export interface MemberRecord {
  profile_id: string;
  scopes: string[];
  plant_ids: string[] | null;
}

export interface Access {
  key: ApiKeyRecord;
  scopes: ReadonlySet<string>;
  /** null = every plant. */
  plants: ReadonlySet<string> | null;
}

export function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function newKeyMaterial(): { keyId: string; secret: string } {
  return { keyId: randomBytes(8).toString('hex'), secret: randomBytes(24).toString('hex') };
}

export function formatKey(keyId: string, secret: string): string {
  return `svc-${keyId}-${secret}`;
}

/** Check a raw X-API-Key header against the stored keys. Throws the uniform 401. */
export function authenticate(
  header: string | string[] | undefined,
  keys: ReadonlyMap<string, ApiKeyRecord>,
  members: ReadonlyMap<string, MemberRecord>,
  nowMs: number,
): Access {
  if (typeof header !== 'string') throw notAuthenticated();
  const m = API_KEY_PATTERN.exec(header);
  if (!m) throw notAuthenticated();
  const key = keys.get(m[1]);
  if (!key) throw notAuthenticated();
  const given = Buffer.from(sha256(m[2]), 'hex');
  const stored = Buffer.from(key.secret_sha256, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw notAuthenticated();
  if (key.revoked_at !== null) throw notAuthenticated();
  if (key.expires_at !== null && Date.parse(key.expires_at) <= nowMs) throw notAuthenticated();
  const member = members.get(key.owner_profile_id);
  if (!member) throw notAuthenticated();
  const scopes = new Set(capScopes(effectiveKeyScopes(key.scopes, key.legacy), member.scopes));
  const plants = capPlants(key.plant_ids, member.plant_ids);
  return { key, scopes, plants: plants === null ? null : new Set(plants) };
}

export function canReachPlant(access: Access, plantId: string): boolean {
  return access.plants === null || access.plants.has(plantId);
}
