/**
 * What still uses an entity, in the UI's language: the core writes the users of a refused or blocked delete in
 * English (the CLI and the job folder keep that text); the app words them in English and German.
 */
import { describe, expect, it } from 'vitest';
import { USER_KINDS } from '../../core/jobs/entities.js';
import { IN_USE_WORDS } from '../../core/jobs/in-use-words.js';
import { usedByText, usersText } from '../../renderer/src/i18n/in-use-words.js';
import { problemText } from '../../renderer/src/screens/import/issueText.js';

const ENGLISH = /\b(the|of|still|used|by|this|import|whose|delete|blocked|written|product|instance|supplier|plant)\b/;

describe('users of a delete in the UI language', () => {
  const users = USER_KINDS.map((k, i) => IN_USE_WORDS.user(k, `X-${i}`));

  it('every kind of user is worded in German, its name kept', () => {
    for (const [i, u] of users.entries()) {
      const german = usersText(u, 'de');
      expect(german, u).not.toBe(u);
      expect(german).toContain(`X-${i}`);
      expect(ENGLISH.test(german.replace(/X-\d+/g, '')), german).toBe(false);
    }
  });

  it('a list of users, with the import’s own writes and blocked deletes, is worded one by one', () => {
    const list = [
      IN_USE_WORDS.user('silo', 'SILO-1'),
      IN_USE_WORDS.writtenByImport(IN_USE_WORDS.user('bom', 'PI-2')),
      IN_USE_WORDS.deleteBlocked(IN_USE_WORDS.user('supplier_product', '"Flour, fine" (ab12)')),
    ].join(', ');
    expect(usersText(list, 'de')).toBe(
      'Silo SILO-1, die Stückliste von Produktinstanz PI-2 (von diesem Import geschrieben), ' +
        'Lieferantenprodukt "Flour, fine" (ab12) (dessen Löschen blockiert ist)',
    );
    expect(usersText(list, 'en')).toBe(list);
  });

  it('a text of another shape stays as it came', () => {
    expect(usersText('something new', 'de')).toBe('something new');
  });

  it('a refused delete: the service’s words apart, the users in German', () => {
    const msg = IN_USE_WORDS.usedBy('supplier product is in use', IN_USE_WORDS.user('silo', 'SILO-1'));
    expect(usedByText(msg, 'de')).toEqual({
      said: 'supplier product is in use',
      usedBy: 'Noch verwendet von Silo SILO-1.',
    });
    expect(usedByText(msg, 'en').usedBy).toBe('Still used by silo SILO-1.');
    expect(usedByText('conflict', 'de')).toEqual({ said: 'conflict', usedBy: null });
  });

  it('the dry run’s blocked delete names its users in German', () => {
    const users = [IN_USE_WORDS.user('bom', 'PI-2'), IN_USE_WORDS.user('silo', 'SILO-1')].join(', ');
    const text = problemText(
      {
        kind: 'rule',
        code: 'in_use',
        sheet: 'Lieferantenprodukte',
        cell: 'A3',
        row: 3,
        field: 'external_id',
        message: `supplier product SP-1 is still used by ${users}`,
        params: { entityKind: 'supplier_product', value: 'SP-1', users },
      },
      'de',
    );
    expect(text).toContain('die Stückliste von Produktinstanz PI-2, Silo SILO-1');
    expect(ENGLISH.test(text.replace(/SP-1|PI-2|SILO-1/g, ''))).toBe(false);
  });
});
