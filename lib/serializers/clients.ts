import type { Serializer } from "@/lib/http/forms";
import type { ClientRow } from "@/lib/services/clients/upsert-client";

const client = (c: ClientRow) => ({
  id: c.id,
  freelancerWallet: c.freelancerWallet,
  name: c.name,
  email: c.email,
  company: c.company,
  address: c.address,
  isFavorite: c.isFavorite,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const clientSerializer: Serializer<ClientRow> = { a: client, b: client };

export const clientListSerializer: Serializer<ClientRow[]> = {
  a: (list) => list.map(client),
  b: (list) => list.map(client),
};

export const clientDeletedSerializer: Serializer<{ id: string }> = {
  a: (v) => ({ id: v.id, deleted: true }),
  b: () => ({ success: true }),
};
