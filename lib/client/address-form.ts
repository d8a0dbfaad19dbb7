import { z } from "@/lib/zod";

/**
 * A structured postal address (lib/schemas/parties.ts) as its text boxes hold it: shared by the
 * profile (the seller), the client form and the invoice form (the buyer).
 */
export type AddressValues = {
  line1: string;
  line2: string;
  line3: string;
  city: string;
  postcode: string;
  region: string;
  country: string;
};

export const ADDRESS_KEYS = [
  "line1",
  "line2",
  "line3",
  "city",
  "postcode",
  "region",
  "country",
] as const satisfies readonly (keyof AddressValues)[];

/** All boxes blank: no address (null); else each blank line is null, the country as typed. */
export function addressFromBoxes(v: AddressValues) {
  if (ADDRESS_KEYS.every((k) => v[k].trim() === "")) return null;
  return Object.fromEntries(
    ADDRESS_KEYS.map((k) => [k, k === "country" ? v[k].trim() : v[k].trim() || null]),
  );
}

/** The boxes of a stored address (blank boxes without one). */
export function addressBoxes(
  a: Partial<Record<keyof AddressValues, string | null>> | null | undefined,
): AddressValues {
  return Object.fromEntries(ADDRESS_KEYS.map((k) => [k, a?.[k] ?? ""])) as AddressValues;
}

/** The API's address schema applied to the boxes (the form restates no rule). */
export const addressFromForm = <S extends z.ZodType>(schema: S) =>
  z.preprocess(addressFromBoxes, schema) as unknown as z.ZodType<z.output<S>, AddressValues>;

/** A nested address error by its box: `errors.postalAddress?.city?.message`. */
export type AddressErrors = Partial<Record<keyof AddressValues, { message?: string }>> | undefined;
