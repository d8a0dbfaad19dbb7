import { ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { clientInputSchema } from "@/lib/schemas/clients";
import { clientListSerializer, clientSerializer } from "@/lib/serializers/clients";

export const listClients = operation({
  method: "GET",
  path: "/api/clients",
  operationId: "listClients",
  tag: "Clients",
  summary: "List saved clients",
  description:
    "The caller's clients, favorites first, then newest first; an empty array when none.",
  auth: "authed",
  scope: ["clients:read"],
  internalError: "Failed to fetch clients",
  responses: [
    { status: 200, description: "The caller's clients", serializer: clientListSerializer },
  ],
});

export const upsertClient = operation({
  method: "POST",
  path: "/api/clients",
  operationId: "upsertClient",
  tag: "Clients",
  summary: "Save a client (upsert by email)",
  description:
    "Upsert on (caller wallet, email): an existing client is updated and keeps its id; otherwise a new one is created.",
  auth: "authed",
  scope: ["clients:write"],
  internalError: "Failed to save client",
  body: {
    schema: clientInputSchema,
    examples: {
      request: {
        summary: "Request",
        value: {
          name: "Ada Client",
          email: "ada@example.com",
          company: "Analytical Engines Ltd",
          isFavorite: true,
        },
      },
    },
  },
  responses: [{ status: 201, description: "The saved client", serializer: clientSerializer }],
  errors: [new ValidationError("Invalid email"), new ValidationError("Name is required")],
});
