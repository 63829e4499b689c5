import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { ApiError, type FieldIssue } from '../api/client.ts';

/**
 * The issue an API 400 names for this field (by its dotted key path), if any. A list typed into one
 * field (`app.frame_ancestors`) is named by its entry (`app.frame_ancestors.1`): the field shows it,
 * saying which entry.
 */
export function issueFor(error: unknown, path: string): FieldIssue | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const own = error.issues.find((i) => i.path === path);
  if (own) return own.sentence ? { path, message: own.sentence } : own;
  const entry = error.issues.find((i) => i.path.startsWith(`${path}.`) && /^\d+$/.test(i.path.slice(path.length + 1)));
  if (entry) return { path, message: entry.sentence ?? `entry ${Number(entry.path.slice(path.length + 1)) + 1}: ${entry.message}` };
  return error.issues.length === 0 && error.message.startsWith(`${path}:`) ? { path, message: error.message.slice(path.length + 1).trim() } : undefined;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The key path the API names in a 400, e.g. `app.scan_interval_seconds`. */
  path?: string;
  error?: unknown;
  hint?: ReactNode;
}

/** A labelled input that shows the API's complaint beside it, linked for screen readers. */
export function Field({ label, path, error, hint, ...input }: FieldProps) {
  const id = useId();
  const issue = path ? issueFor(error, path) : undefined;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [issue ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const checkbox = input.type === 'checkbox';
  return (
    <div className={`field${checkbox ? ' field-check' : ''}${issue ? ' field-invalid' : ''}`} data-path={path}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={path} aria-invalid={issue ? 'true' : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <small id={hintId} className="hint">
          {hint}
        </small>
      ) : null}
      {issue ? (
        <small id={errorId} className="field-error">
          {issue.message}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled select that shows the API's complaint beside it, as Field does. */
export function SelectField<T extends string>({
  label,
  path,
  options,
  value,
  error,
  onChange,
}: {
  label: string;
  path: string;
  options: readonly T[];
  value: T | string;
  error: unknown;
  onChange: (v: T) => void;
}) {
  const id = useId();
  const issue = issueFor(error, path);
  return (
    <div className={`field${issue ? ' field-invalid' : ''}`} data-path={path}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={path}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
        aria-invalid={issue ? 'true' : undefined}
        aria-describedby={issue ? `${id}-error` : undefined}
      >
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
      {issue ? (
        <small id={`${id}-error`} className="field-error">
          {issue.message}
        </small>
      ) : null}
    </div>
  );
}
