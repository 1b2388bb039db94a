/**
 * A list of facts (`dl.facts`): a term and its value each. An entry that is not there (false, null, '') is
 * left out, so a screen lists its facts in order and names the ones it may lack with `&&`.
 */
import { Fragment } from 'react';
import type { ReactNode } from 'react';

export type Fact = readonly [term: string, value: ReactNode];

export function Facts({
  facts,
  inline,
}: {
  facts: readonly (Fact | false | null | undefined | '')[];
  /** on one line (a job's header) instead of a column */
  inline?: boolean;
}) {
  return (
    <dl className={inline ? 'facts facts-inline' : 'facts'}>
      {facts.map(
        (f, i) =>
          f && (
            <Fragment key={i}>
              <dt>{f[0]}</dt>
              <dd>{f[1]}</dd>
            </Fragment>
          ),
      )}
    </dl>
  );
}
