/** Client-side checks of the profile form, so the user sees a field error in their language before sending. */
import { API_KEY_PATTERN } from '../../core/spec/constants.js';

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  apiKey: string;
}
export type ProfileFormErrorCode = 'nameRequired' | 'urlInvalid' | 'urlCredentials' | 'keyFormat' | 'keyRequired';
export type ProfileFormErrors = Partial<Record<keyof ProfileFormValues, ProfileFormErrorCode>>;

export function validateProfileForm(v: ProfileFormValues, opts: { keyRequired: boolean }): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (v.name.trim() === '') errors.name = 'nameRequired';
  try {
    const u = new URL(v.baseUrl.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') errors.baseUrl = 'urlInvalid';
    else if (u.username !== '' || u.password !== '') errors.baseUrl = 'urlCredentials';
  } catch {
    errors.baseUrl = 'urlInvalid';
  }
  const key = v.apiKey.trim();
  if (key === '') {
    if (opts.keyRequired) errors.apiKey = 'keyRequired';
  } else if (!API_KEY_PATTERN.test(key)) errors.apiKey = 'keyFormat';
  return errors;
}
