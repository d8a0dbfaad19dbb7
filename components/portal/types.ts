import type { portalOverviewResponse } from "@/lib/schemas/portal";
import type { statementResponse } from "@/lib/schemas/statements";
import type { FormB } from "@/lib/schemas/wire";

/** The portal's view (GET /api/portal, Form B). */
export type PortalView = FormB<typeof portalOverviewResponse>;
export type PortalInvoice = PortalView["invoices"][number];
/** A statement (GET /api/portal/statement). */
export type PortalStatement = FormB<typeof statementResponse>;
export type Translate = (key: string, values?: Record<string, string | number>) => string;
