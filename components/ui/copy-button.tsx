"use client";

import { useEffect, useRef, useState } from "react";
import { Button, type ButtonVariant } from "./button";

/** Clipboard API first; the old execCommand path for pages outside a secure context. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea route
  }
  try {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/**
 * A button that copies `text`. Its name never changes (`label`); the outcome is announced in
 * a live region beside it ("Copied").
 */
export function CopyButton({
  text,
  label,
  variant = "secondary",
  className = "",
  buttonClassName,
  ariaLabel,
}: {
  text: string;
  label: string;
  /** A fuller name when several copy buttons share a page ("Copy link for Design work"). */
  ariaLabel?: string;
  variant?: ButtonVariant;
  className?: string;
  buttonClassName?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const ok = await copyText(text);
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 4000);
  }

  return (
    <span className={`inline-flex flex-wrap items-center gap-2 ${className}`}>
      <Button variant={variant} onClick={copy} aria-label={ariaLabel} className={buttonClassName}>
        {label}
      </Button>
      <span role="status" aria-live="polite" className="text-sm">
        {state === "copied" && (
          <span className="font-medium text-emerald-700 dark:text-emerald-300">Copied</span>
        )}
        {state === "failed" && (
          <span className="text-red-700 dark:text-red-300">
            Copy failed: select the text and copy it by hand.
          </span>
        )}
      </span>
    </span>
  );
}
