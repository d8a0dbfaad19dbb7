/** Form B body of a saved client, inferred from its schema (lib/schemas/clients.ts). */
export type { ClientBody as SavedClient } from "@/lib/schemas/clients";
