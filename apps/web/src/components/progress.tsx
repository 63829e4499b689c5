import { formatDuration, progressNote, readProgress } from './format.ts';

/** A job's progress as a bar, percent, speed and ETA, or the counts a scan reports; a dash before its first report. */
export function JobProgress({ progress, label }: { progress: unknown; label: string }) {
  const p = readProgress(progress);
  const note = progressNote(progress);
  if (note !== null) return <span className="muted">{note}</span>;
  if (!p || p.percent === null) return <span className="muted">–</span>;
  return (
    <span className="progress-cell">
      <progress max={100} value={p.percent} aria-label={label} />
      <span data-testid="percent">{p.percent.toFixed(1)}%</span>
      {p.speed !== null ? <span className="muted"> {p.speed.toFixed(2)}×</span> : null}
      {p.eta_seconds !== null ? <span className="muted"> ETA {formatDuration(p.eta_seconds)}</span> : null}
    </span>
  );
}
