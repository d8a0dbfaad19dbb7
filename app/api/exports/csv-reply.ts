import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import type { RawSuccess } from "@/lib/http/route";
import { rawReply } from "@/lib/http/route";
import type { ExportQuery } from "@/lib/schemas/exports";
import { exportFilename } from "@/lib/services/exports/csv";

/** A CSV export streamed as an attachment (docs/decisions.md, Exports). */
export const csvReply = (body: ReadableStream<Uint8Array>, name: string, query: ExportQuery) =>
  rawReply(
    new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8; header=present",
        "content-disposition": `attachment; filename="${exportFilename(name, query)}"`,
      },
    }),
  );

/** The success both exports declare. */
export const csvSuccess = (name: string): RawSuccess => ({
  status: 200,
  description: `The CSV, streamed: RFC 4180, UTF-8, a header row, one row per ${name}`,
  raw: {
    contentType: "text/csv; charset=utf-8",
    headers: {
      "Content-Disposition": {
        description: `\`attachment; filename="${name}s_2026-01-01_2026-02-01.csv"\` (the range and network asked)`,
      },
    },
  },
});

/** A bad `from`, `to` or `network`: 400 with `details`. */
export const badExportQuery = new ValidationError(INVALID_REQUEST);
