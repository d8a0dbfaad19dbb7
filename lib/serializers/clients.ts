import { sameInBothForms } from "@/lib/http/forms";
import { clientDeleted, clientList, clientResponse } from "@/lib/schemas/clients";
import type { FormB } from "@/lib/schemas/wire";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import { deletedSerializer } from "./common";

const client = (c: ClientRow): FormB<typeof clientResponse> => ({
  id: c.id,
  freelancerWallet: c.freelancerWallet,
  name: c.name,
  email: c.email,
  company: c.company,
  address: c.address,
  taxId: c.taxId,
  taxScheme: c.taxScheme,
  postalAddress: c.postalAddress,
  isBusiness: c.isBusiness,
  language: c.language,
  buyerReference: c.buyerReference,
  isFavorite: c.isFavorite,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const clientSerializer = sameInBothForms(clientResponse, client);

export const clientListSerializer = sameInBothForms(
  clientList,
  (list: ClientRow[]): FormB<typeof clientList> => list.map(client),
);

export const clientDeletedSerializer = deletedSerializer(clientDeleted);
