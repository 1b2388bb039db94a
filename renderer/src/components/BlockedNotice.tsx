/**
 * Rows that cannot be sent (blocked by an error), when there are any: a warning, and the choice to send the others
 * without them (the dry run's and the undo's, each with its own words).
 */
import { useI18n } from '../i18n/index.js';
import type { MessageKey } from '../i18n/index.js';
import { Checkbox } from './Checkbox.js';
import { formatNumber } from './format.js';
import { Notice } from './Notice.js';

export function BlockedNotice({
  blocked,
  words,
  skip,
  onSkip,
}: {
  blocked: number;
  /** the warning and the checkbox's words, each with the count */
  words: readonly [notice: MessageKey, skipLabel: MessageKey];
  skip: boolean;
  onSkip(skip: boolean): void;
}) {
  const { t, locale } = useI18n();
  if (blocked <= 0) return null;
  const count = formatNumber(blocked, locale);
  return (
    <Notice kind="warning">
      {t(words[0], { count })}
      <Checkbox checked={skip} onChange={onSkip}>
        {t(words[1], { count })}
      </Checkbox>
    </Notice>
  );
}
