import type { ReactNode } from 'react';

export function Notice({ kind, children }: { kind: 'info' | 'warning' | 'success'; children: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'warning' ? 'alert' : 'status'}>
      <div className="notice-body">{children}</div>
    </div>
  );
}
