/**
 * A name as code (a sheet, a source file) that may wrap after its separators ("Lieferanten_ / 2026-02.csv")
 * when its column is narrow: never cut, never run under the next column, never broken inside a part.
 */
import { Fragment } from 'react';
import { nameParts } from './format.js';

export function BreakableCode({ text }: { text: string }) {
  return (
    <code className="breakable">
      {nameParts(text).map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </code>
  );
}
