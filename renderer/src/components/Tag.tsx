import type { ReactNode } from 'react';
import type { Tone } from './format.js';

/** A small coloured label for an action, an outcome or a state (the word is always there, colour only helps). */
export function Tag({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`tag tone-${tone}`} title={title}>
      {children}
    </span>
  );
}
