/** A labelled progress bar (role=progressbar); indeterminate while the total is not known. */
export function ProgressBar({
  value,
  max,
  label,
  valueText,
}: {
  value: number;
  max: number | null;
  label: string;
  valueText?: string;
}) {
  const known = max !== null && max > 0;
  const pct = known ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return (
    <div
      className={`progress${known ? '' : ' progress-indeterminate'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? Math.min(value, max) : undefined}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={{ width: known ? `${pct}%` : undefined }} />
    </div>
  );
}
