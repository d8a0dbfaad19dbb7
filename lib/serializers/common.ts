import { serializer } from "@/lib/http/forms";
import type { deletedShape, FormA, FormB } from "@/lib/schemas/wire";

/** A nullable date as the wire shows it: ISO 8601 (UTC, milliseconds) or null. */
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Deleted = ReturnType<typeof deletedShape>;

/** The answer of a delete (a client, a webhook endpoint): the id of what is gone. */
export const deletedSerializer = (shape: Deleted) =>
  serializer(shape, {
    a: (v: { id: string }): FormA<Deleted> => ({ id: v.id, deleted: true }),
    b: (): FormB<Deleted> => ({ success: true }),
  });
