import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { clients } from "@/db/schema";
import type { PostalAddress, TaxScheme } from "@/lib/domain/address";
import { ValidationError } from "@/lib/domain/errors";
import type { Language } from "@/lib/i18n/languages";
import { isId } from "@/lib/ids";

// A saved client named by `clientId` in a create-invoice body or a recurring template
// (docs/decisions.md, Recurring invoices): its details as they are when the invoice is made.

export const SAVED_CLIENT_NOT_FOUND =
  "Saved client not found (it may have been deleted): choose another client or enter the client's details";

/** The client fields an invoice row takes. */
export type ClientDetails = {
  clientName: string;
  clientEmail: string;
  clientCompany: string | null;
  clientAddress: string | null;
  clientTaxId: string | null;
  clientTaxScheme: TaxScheme | null;
  clientPostalAddress: PostalAddress | null;
  clientIsBusiness: boolean | null;
  /** Not an invoice column of its own: the invoice's language defaults from it. */
  language: Language | null;
  /** A saved client's default buyer reference (BT-10); the invoice's own wins. */
  buyerReference?: string | null;
};

/**
 * The owner's saved client's current details; a 400 naming `field` (`clientId`, or
 * `template.clientId` for a recurring template) when it is not theirs or no longer exists.
 */
export async function savedClientDetails(
  db: DbOrTx,
  wallet: string,
  id: string,
  field = "clientId",
): Promise<ClientDetails> {
  const [row] = isId(id)
    ? await db
        .select()
        .from(clients)
        .where(and(eq(clients.id, id), eq(clients.freelancerWallet, wallet)))
        .limit(1)
    : [];
  if (!row) throw new ValidationError(SAVED_CLIENT_NOT_FOUND, { [field]: SAVED_CLIENT_NOT_FOUND });
  return {
    clientName: row.name,
    clientEmail: row.email,
    clientCompany: row.company,
    clientAddress: row.address,
    clientTaxId: row.taxId,
    clientTaxScheme: row.taxScheme,
    clientPostalAddress: row.postalAddress,
    clientIsBusiness: row.isBusiness,
    language: row.language,
    buyerReference: row.buyerReference,
  };
}
