import type { ReactNode } from "react";
import { Button } from "./button";
import { CopyButton } from "./copy-button";
import { ReadOnlyField } from "./read-only-field";

/**
 * A secret the API shows once (a webhook signing secret, an API key): a highlighted panel
 * with the value, a copy button and "I have saved it".
 */
export function ShownOnce({
  heading,
  label,
  value,
  copyLabel,
  doneLabel,
  onDone,
  testId,
  children,
}: {
  heading: string;
  label: string;
  value: string;
  copyLabel: string;
  doneLabel: string;
  onDone: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${testId}-heading`}
      className="rounded-lg border-2 border-amber-400 bg-amber-50 p-5 text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id={`${testId}-heading`} className="text-base font-semibold">
        {heading}
      </h2>
      {children}
      <ReadOnlyField
        label={label}
        value={value}
        className="mt-3 block text-sm font-medium"
        inputClassName="border-amber-300 bg-white text-slate-900"
        data-testid={testId}
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={value} label={copyLabel} />
        <Button variant="ghost" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </section>
  );
}
