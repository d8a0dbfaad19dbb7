import type {
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

const control =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

type Labelled = { label: string; hint?: ReactNode; error?: string };

export function Field({
  label,
  hint,
  error,
  id,
  className = "",
  ...props
}: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  const fieldId = id ?? props.name;
  return (
    <label
      className={`block text-sm font-medium text-slate-700 dark:text-slate-200 ${className}`}
      htmlFor={fieldId}
    >
      {label}
      <input id={fieldId} className={control} aria-invalid={error ? true : undefined} {...props} />
      {hint && <span className="mt-1 block text-xs font-normal text-slate-500">{hint}</span>}
      {error && <span className="mt-1 block text-xs font-normal text-red-600">{error}</span>}
    </label>
  );
}

export function TextArea({
  label,
  id,
  className = "",
  ...props
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const fieldId = id ?? props.name;
  return (
    <label
      className={`block text-sm font-medium text-slate-700 dark:text-slate-200 ${className}`}
      htmlFor={fieldId}
    >
      {label}
      <textarea id={fieldId} className={control} {...props} />
    </label>
  );
}

export function Select({
  label,
  id,
  className = "",
  children,
  ...props
}: Labelled & SelectHTMLAttributes<HTMLSelectElement>) {
  const fieldId = id ?? props.name;
  return (
    <label
      className={`block text-sm font-medium text-slate-700 dark:text-slate-200 ${className}`}
      htmlFor={fieldId}
    >
      {label}
      <select id={fieldId} className={control} {...props}>
        {children}
      </select>
    </label>
  );
}
