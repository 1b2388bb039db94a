/** Rows that cannot be sent (blocked by an error): a warning, and the choice to send the others without them. */
import { Checkbox } from './Checkbox.js';
import { Notice } from './Notice.js';

export function BlockedNotice({
  notice,
  skipLabel,
  skip,
  onSkip,
}: {
  notice: string;
  skipLabel: string;
  skip: boolean;
  onSkip(skip: boolean): void;
}) {
  return (
    <Notice kind="warning">
      {notice}
      <Checkbox checked={skip} onChange={onSkip}>
        {skipLabel}
      </Checkbox>
    </Notice>
  );
}
