"use client";

import type { ReactNode } from "react";
import { SessionProvider } from "@/lib/client/session";

export function Providers({ children }: { children: ReactNode }) {
  return <SessionProvider>{children}</SessionProvider>;
}
