"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * Scalar's renderer for /docs, configured to work offline: everything it needs ships in the
 * bundle, and every feature that would call scalar.com (web fonts, telemetry, the AI agent,
 * which is on by default on localhost, and the share/upload toolbar) is switched off.
 */
export function ApiReference({ url }: { url: string }) {
  return (
    <ApiReferenceReact
      configuration={{
        url,
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        showDeveloperTools: "never",
        documentDownloadType: "json",
        hideDarkModeToggle: false,
      }}
    />
  );
}
