"use client";

import { useServerInsertedHTML } from "next/navigation";
import { type ReactNode, useRef } from "react";

/**
 * Puts `children` in a <noscript> of the server's HTML. Next.js 16 answers a notFound() of a
 * dynamic page with status 404 and an empty document that only JavaScript fills in
 * (vercel/next.js#62228); the HTML it inserts from useServerInsertedHTML is still sent, so a
 * browser without JavaScript shows this instead (docs/decisions.md, Not found without JavaScript).
 */
export function NoScript({ children }: { children: ReactNode }) {
  const sent = useRef(false);
  useServerInsertedHTML(() => {
    // Called at every flush: the markup goes out once.
    if (sent.current) return null;
    sent.current = true;
    return <noscript>{children}</noscript>;
  });
  return null;
}
