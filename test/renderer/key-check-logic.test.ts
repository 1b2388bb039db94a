/** The key check's buttons say what can be done: a failed check does not offer the connection as the main action. */
import { describe, expect, it } from 'vitest';
import { keyCheckButtons } from '../../renderer/src/screens/keyCheckLogic.js';

describe('the key check buttons', () => {
  it('after "The service could not be reached" the main button checks again; using it is not the main action', () => {
    const b = keyCheckButtons({ isActive: false, checked: false, error: { status: null } });
    expect(b).toEqual({ use: 'secondary', again: 'primary' });
  });

  it('a key the service refused is never offered for use', () => {
    expect(keyCheckButtons({ isActive: false, checked: false, error: { status: 401 } }).use).toBeNull();
  });

  it('a key the service answered for: "Use this connection" is the main action, unless it is in use already', () => {
    expect(keyCheckButtons({ isActive: false, checked: true, error: null })).toEqual({
      use: 'primary',
      again: 'secondary',
    });
    expect(keyCheckButtons({ isActive: true, checked: true, error: null }).use).toBeNull();
    expect(keyCheckButtons({ isActive: false, checked: false, error: null }).use).toBe('secondary');
  });
});
