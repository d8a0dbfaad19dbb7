const STEPS = {
  connect: "Connecting to your wallet",
  prepare: "Preparing transaction",
  sign: "Waiting for your signature",
  submit: "Submitting to the Stellar network",
  paid: "Paid",
} as const;
export type StepKey = keyof typeof STEPS;
const KEYS = Object.keys(STEPS) as StepKey[];

/** A browser wallet's payment progress, step by step, with the current one announced. */
export function PaymentSteps({
  wallet,
  current,
  failed,
}: {
  /** The wallet's name: "Connecting to Freighter". */
  wallet: string;
  current: StepKey;
  failed: boolean;
}) {
  const at = KEYS.indexOf(current);
  const label = (key: StepKey) => (key === "connect" ? `Connecting to ${wallet}` : STEPS[key]);
  return (
    <div>
      <ol aria-label="Payment progress" className="space-y-2">
        {KEYS.map((key, i) => {
          const done = i < at || (current === "paid" && i === at);
          const active = i === at && !done;
          const state = done
            ? "done"
            : active
              ? failed
                ? "failed"
                : "in progress"
              : "not started";
          return (
            <li
              key={key}
              aria-current={active ? "step" : undefined}
              data-state={state}
              className={`flex items-center gap-3 text-sm ${done ? "text-emerald-800 dark:text-emerald-300" : active ? (failed ? "font-semibold text-red-700 dark:text-red-300" : "font-semibold text-slate-900 dark:text-white") : "text-slate-600 dark:text-slate-400"}`}
            >
              <span
                aria-hidden="true"
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs ${done ? "border-emerald-600 bg-emerald-600 text-white" : active ? (failed ? "border-red-600 text-red-700" : "animate-pulse border-indigo-600 text-indigo-700") : "border-slate-300 text-slate-500"}`}
              >
                {done ? "✓" : active && failed ? "!" : i + 1}
              </span>
              <span>
                {label(key)}
                <span className="sr-only"> ({state})</span>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="sr-only" role="status" aria-live="polite">
        {failed ? `${label(current)} failed` : label(current)}
      </p>
    </div>
  );
}
