/** An updated row's changes in the job's results: fields named by their label, values kept, other words kept. */
import { describe, expect, it } from 'vitest';
import { changesText } from '../../renderer/src/i18n/plan-notes.js';

describe('an updated row’s changes', () => {
  it('names each field by its label in the UI’s language, never by the core’s path', () => {
    expect(changesText('transport_route.truck_km: 130 → 135', 'en')).toBe('Truck distance (km): 130 → 135');
    expect(changesText('transport_route.truck_km: 130 → 135; name: A; B → C', 'de')).toBe(
      'Strecke per Lkw (km): 130 → 135; Bezeichnung: A; B → C',
    );
  });

  it('keeps a message that is not a list of changes as it came', () => {
    expect(changesText('already on the service with the same values', 'de')).toBe(
      'already on the service with the same values',
    );
  });
});
