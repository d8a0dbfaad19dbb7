"use client";

import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";

const control =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const labelStyle = "block text-sm font-medium text-slate-700 dark:text-slate-200";

type Labelled = { label: string; hint?: ReactNode; error?: string };

/**
 * Label, control, then hint and error linked with aria-describedby, so the accessible name is
 * exactly the label and the hint is read as a description.
 */
function useIds(id: string | undefined, hint: unknown, error: unknown) {
  const generated = useId();
  const fieldId = id ?? generated;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return { fieldId, hintId, errorId, describedBy };
}

function Extras({
  hint,
  hintId,
  error,
  errorId,
}: {
  hint?: ReactNode;
  hintId?: string;
  error?: string;
  errorId?: string;
}) {
  return (
    <>
      {hint && (
        <span
          id={hintId}
          className="mt-1 block text-xs font-normal text-slate-500 dark:text-slate-400"
        >
          {hint}
        </span>
      )}
      {error && (
        <span
          id={errorId}
          className="mt-1 block text-xs font-normal text-red-600 dark:text-red-400"
        >
          {error}
        </span>
      )}
    </>
  );
}

export function Field({
  label,
  hint,
  error,
  id,
  className = "",
  ...props
}: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useIds(id, hint, error);
  return (
    <div className={className}>
      <label className={labelStyle} htmlFor={ids.fieldId}>
        {label}
      </label>
      <input
        id={ids.fieldId}
        className={control}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...props}
      />
      <Extras hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function TextArea({
  label,
  hint,
  error,
  id,
  className = "",
  ...props
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ids = useIds(id, hint, error);
  return (
    <div className={className}>
      <label className={labelStyle} htmlFor={ids.fieldId}>
        {label}
      </label>
      <textarea
        id={ids.fieldId}
        className={control}
        aria-describedby={ids.describedBy}
        {...props}
      />
      <Extras hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export function Select({
  label,
  hint,
  error,
  id,
  className = "",
  children,
  ...props
}: Labelled & SelectHTMLAttributes<HTMLSelectElement>) {
  const ids = useIds(id, hint, error);
  return (
    <div className={className}>
      <label className={labelStyle} htmlFor={ids.fieldId}>
        {label}
      </label>
      <select id={ids.fieldId} className={control} aria-describedby={ids.describedBy} {...props}>
        {children}
      </select>
      <Extras hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
