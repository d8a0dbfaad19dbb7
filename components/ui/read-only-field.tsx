import type { ComponentProps } from "react";

/** A value to copy (a link, a secret): read-only, selected whole when focused. */
export function ReadOnlyField({
  label,
  value,
  className = "block text-sm font-medium text-slate-700 dark:text-slate-200",
  inputClassName = "border-slate-300 bg-slate-50 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
  ...props
}: {
  label: string;
  value: string;
  className?: string;
  inputClassName?: string;
} & Omit<ComponentProps<"input">, "value" | "readOnly" | "className">) {
  return (
    <label className={className}>
      {label}
      <input
        readOnly
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        className={`mt-1 block w-full rounded-md border px-3 py-2 font-mono text-xs focus:outline-none focus:ring-2 focus:ring-indigo-500 ${inputClassName}`}
        {...props}
      />
    </label>
  );
}
