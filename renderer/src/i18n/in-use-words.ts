/**
 * What still uses an entity (core/jobs/in-use-words.ts), in the UI's language: the users of a blocked delete of
 * the dry run and of a delete the service refused are known by their shapes and worded by their messages; a text
 * of any other shape stays as it came.
 */
import { USER_NOUNS } from '../../../core/jobs/in-use-words.js';
import { translate, type Locale, type MessageKey } from './index.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const LEADS = ['the BOM of product instance ', ...USER_NOUNS.map((n) => `${n.noun} `)];
/** Where one user ends and the next begins: a comma before the lead of a user. */
const BETWEEN = new RegExp(`, (?=${LEADS.map(escape).join('|')})`);
const USER = new RegExp(
  `^(?:the BOM of product instance (?<bom>.+?)|(?<noun>${USER_NOUNS.map((n) => escape(n.noun)).join('|')}) (?<name>.+?))` +
    '(?<suffix> \\(written by this import\\)| \\(whose delete is blocked\\))?$',
);
const USED_BY = /^(?<said>[\s\S]*?) — still used by (?<users>.+)$/;

/** One user in the UI's words; undefined when it has none of the shapes. */
function userText(user: string, locale: Locale): string | undefined {
  const m = USER.exec(user)?.groups;
  if (!m) return undefined;
  const kind = m.noun !== undefined ? USER_NOUNS.find((n) => n.noun === m.noun)?.kind : 'bom';
  if (!kind) return undefined;
  const words =
    kind === 'bom'
      ? translate(locale, 'inUse.bom', { name: m.bom })
      : `${translate(locale, `entity.${kind}` satisfies MessageKey)} ${m.name}`;
  if (m.suffix === ' (written by this import)') return translate(locale, 'inUse.writtenByImport', { user: words });
  if (m.suffix === ' (whose delete is blocked)') return translate(locale, 'inUse.deleteBlocked', { user: words });
  return words;
}

/** The users of a delete (`silo SILO-1, the BOM of product instance PI-2`) in the UI's words. */
export function usersText(users: string, locale: Locale): string {
  const parts = users.split(BETWEEN).map((u) => userText(u, locale));
  return parts.every((p) => p !== undefined) ? parts.join(', ') : users;
}

/**
 * A refused delete's message split into what the service said and who still uses the entity (in the UI's
 * words); `usedBy` is null for a message without users.
 */
export function usedByText(message: string, locale: Locale): { said: string; usedBy: string | null } {
  const m = USED_BY.exec(message)?.groups;
  if (!m) return { said: message, usedBy: null };
  return { said: m.said, usedBy: translate(locale, 'results.stillUsedBy', { users: usersText(m.users, locale) }) };
}
