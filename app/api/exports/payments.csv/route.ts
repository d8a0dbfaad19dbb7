import { defineRoute, methods } from "@/lib/http/route";
import { exportPayments } from "@/lib/services/exports/payments";
import { csvReply } from "../csv-reply";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.exportPayments, async ({ ctx, query }) =>
    csvReply(exportPayments(ctx, query), "payments", query),
  ),
);
