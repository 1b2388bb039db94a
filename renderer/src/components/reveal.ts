/**
 * New content a user asked for (the re-run panel, a resumed job's progress, a report opened from a list) is
 * brought into view and takes focus, so it never opens below the fold unnoticed. The element needs
 * `tabIndex={-1}`.
 */
import { useEffect, useRef } from 'react';

export function reveal(el: HTMLElement | null): void {
  if (!el) return;
  el.scrollIntoView({ block: 'start', behavior: 'auto' });
  el.focus({ preventScroll: true });
}

/** A ref whose element is revealed whenever `key` changes to a value other than null/false. */
export function useReveal<E extends HTMLElement>(key: unknown) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (key !== null && key !== false && key !== undefined) reveal(ref.current);
  }, [key]);
  return ref;
}
