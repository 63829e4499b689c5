import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { Question } from './confirm-text.ts';

/**
 * Asks before an action that changes many files: a modal <dialog> (the browser keeps focus inside
 * it and the page behind inert), naming the action, the count and the consequence. Escape and
 * Cancel close it and do nothing; focus starts on Cancel, so that Enter alone changes nothing, and
 * goes back to the button that opened it. Rendered only while it asks.
 */
export function ConfirmDialog({
  question,
  onConfirm,
  onCancel,
  children,
}: {
  question: Question;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const d = dialog.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    d.showModal();
    cancel.current?.focus();
    return () => {
      if (d.open) d.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        // Escape: the parent unmounts the dialog, which closes it.
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{question.title}</h2>
      <p id={bodyId}>{question.consequence}</p>
      {children}
      <div className="confirm-actions">
        <button type="button" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          {question.confirm}
        </button>
      </div>
    </dialog>
  );
}
