"use client";

import { useCallback, useState } from "react";
import { errorDetails } from "./api";
import { errorMessage } from "./session";

export type Notice = { kind: "success" | "error"; text: string };

/**
 * One request at a time from a page's buttons and forms: `busy` names the running one, a
 * failure becomes an error `notice` (with the 400's per-field `details`), and a success the
 * text `run`'s function returns, if it returns one.
 */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [details, setDetails] = useState<Record<string, string>>({});

  const run = useCallback(
    async (name: string, action: () => Promise<unknown>): Promise<boolean> => {
      setBusy(name);
      setNotice(null);
      setDetails({});
      try {
        const done = await action();
        if (typeof done === "string") setNotice({ kind: "success", text: done });
        return true;
      } catch (err) {
        setDetails(errorDetails(err));
        setNotice({ kind: "error", text: errorMessage(err) });
        return false;
      } finally {
        setBusy(null);
      }
    },
    [],
  );

  const clearDetails = useCallback(() => setDetails({}), []);
  return { busy, notice, setNotice, details, clearDetails, run };
}

/**
 * Deleting one item after a confirmation dialog: `ask(item)` opens it, `confirm()` runs
 * `remove(item)` through `action` (its notice reports the outcome) and closes it.
 */
export function useRemoval<T>(
  action: ReturnType<typeof useAction>,
  remove: (item: T) => Promise<string>,
) {
  const [target, setTarget] = useState<T | null>(null);
  async function confirm() {
    if (target === null) return;
    await action.run("delete", () => remove(target));
    setTarget(null);
  }
  return { target, ask: setTarget, cancel: () => setTarget(null), confirm };
}
