// Code lists EN 16931 checks values against (BR-CL-*), as its validation artefacts 1.3.16 hold
// them: the values only, for eInvoiceProblems to name a code a receiver would refuse.

/** The VATEX list lives with the tax categories: invoices are checked against it on entry. */
export { VATEX_CODES } from "@/lib/domain/tax-categories";
