"use client";

import { useCallback, useEffect, useRef, useState } from "react";

export type ToastItem = { id: number; text: string };

/** How long a toast stays (it can be dismissed sooner). */
const TOAST_MS = 10_000;

/**
 * Short notices that come and go (a payment arrived): `show(text)` adds one, each leaves after
 * 10 seconds or when dismissed. Render `toasts` with <Toasts>.
 */
export function useToasts() {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const next = useRef(0);
  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((t) => t.id !== id)),
    [],
  );
  const show = useCallback((text: string) => {
    next.current += 1;
    const id = next.current;
    setToasts((list) => [...list.slice(-2), { id, text }]);
  }, []);
  return { toasts, show, dismiss };
}

/**
 * The toasts, bottom right above the page. The live region (role=status, polite) stays
 * mounted, so a screen reader announces each toast as it is added; none takes the focus.
 */
export function Toasts({
  toasts,
  dismiss,
}: {
  toasts: ToastItem[];
  dismiss: (id: number) => void;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-end gap-2 sm:inset-x-auto sm:right-6"
    >
      {toasts.map((t) => (
        <Toast key={t.id} toast={t} dismiss={dismiss} />
      ))}
    </div>
  );
}

function Toast({ toast, dismiss }: { toast: ToastItem; dismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id, dismiss]);
  return (
    <div
      data-testid="toast"
      className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 shadow-lg dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">{toast.text}</p>
      <button
        type="button"
        onClick={() => dismiss(toast.id)}
        className="rounded px-1 text-emerald-800 hover:bg-emerald-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-700 dark:text-emerald-200 dark:hover:bg-emerald-900"
        aria-label="Dismiss"
      >
        ×
      </button>
    </div>
  );
}
