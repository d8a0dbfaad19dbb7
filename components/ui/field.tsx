"use client";

import { type ComponentProps, type ElementType, type ReactNode, useId } from "react";
import type { Options } from "./options";

const control =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

type Labelled = { label: string; hint?: ReactNode; error?: string };

/**
 * Label, control, then hint and error linked with aria-describedby, so the accessible name is
 * exactly the label and the hint is read as a description.
 */
function LabelledControl({
  tag: Tag,
  label,
  hint,
  error,
  id,
  className = "",
  ...props
}: Labelled & { tag: ElementType; id?: string; className?: string }) {
  const generated = useId();
  const fieldId = id ?? generated;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={className}>
      <label
        className="block text-sm font-medium text-slate-700 dark:text-slate-200"
        htmlFor={fieldId}
      >
        {label}
      </label>
      <Tag
        id={fieldId}
        className={control}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        aria-invalid={error ? true : undefined}
        {...props}
      />
      {hint && (
        <span
          id={hintId}
          className="mt-1 block text-xs font-normal text-slate-500 dark:text-slate-400"
        >
          {hint}
        </span>
      )}
      {error && (
        <FieldError id={errorId} className="mt-1 block font-normal">
          {error}
        </FieldError>
      )}
    </div>
  );
}

export function Field(props: Labelled & ComponentProps<"input">) {
  return <LabelledControl tag="input" {...props} />;
}

export function TextArea(props: Labelled & ComponentProps<"textarea">) {
  return <LabelledControl tag="textarea" {...props} />;
}

export function Select(props: Labelled & ComponentProps<"select">) {
  return <LabelledControl tag="select" {...props} />;
}

/** A `<select>` of fixed options: `[value, label]` pairs, with an optional "any" first. */
export function OptionsSelect({
  options,
  any,
  ...props
}: Labelled & ComponentProps<"select"> & { options: Options; any?: string }) {
  return (
    <Select {...props}>
      {any !== undefined && <option value="">{any}</option>}
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </Select>
  );
}

/** An error line under a control or a group of controls. */
export function FieldError({
  children,
  id,
  className = "",
}: {
  children: ReactNode;
  id?: string;
  className?: string;
}) {
  return (
    <span id={id} className={`block text-xs text-red-600 dark:text-red-400 ${className}`}>
      {children}
    </span>
  );
}

export function Checkbox({
  label,
  hint,
  id,
  className = "",
  ...props
}: { label: string; hint?: ReactNode } & Omit<ComponentProps<"input">, "type">) {
  const fieldId = id ?? props.name;
  return (
    <div className={`flex items-start gap-2 ${className}`}>
      <input
        id={fieldId}
        type="checkbox"
        className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        {...props}
      />
      <label htmlFor={fieldId} className="text-sm text-slate-700 dark:text-slate-200">
        {label}
        {hint && <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>}
      </label>
    </div>
  );
}

/** A Field hint readable in dark mode too (the hint colour above is for light backgrounds). */
export function Hint({ children }: { children: ReactNode }) {
  return <span className="dark:text-slate-400">{children}</span>;
}
