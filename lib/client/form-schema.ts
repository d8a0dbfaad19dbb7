import { z } from "@/lib/zod";

/**
 * What the browser's forms put between their controls and the API's request schemas
 * (lib/schemas): each form validates with the API's own field schemas through these, so a
 * message beside a field is the one the API would answer and no rule is written twice.
 */

/**
 * A text box's value, trimmed. An empty one means "not given": null where the API's field
 * takes null (so an edit clears it), absent where it takes only absent; a required field
 * keeps "" and fails with its own message ("Client name is required").
 */
export function fromTextBox<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, string> {
  const blank = schema.safeParse(null).success
    ? null
    : schema.safeParse(undefined).success
      ? undefined
      : "";
  return z.preprocess((v: string) => v.trim() || blank, schema);
}

/** A control's value `I`, turned into what the API's schema takes. */
export function fromInput<S extends z.ZodType, I>(
  schema: S,
  convert: (value: I) => unknown,
): z.ZodType<z.output<S>, I> {
  return z.preprocess(convert, schema) as unknown as z.ZodType<z.output<S>, I>;
}

/** A number box as typed: blank is absent (the API's default), anything else a number. */
export const typedNumber = (value: string): number | undefined =>
  value.trim() === "" ? undefined : Number(value.trim());

/**
 * A schema message that names no field ("value must be greater than 0", from the decimal
 * rules in lib/domain/money.ts) read with the field's label instead.
 */
export const labelled = (message: string | undefined, label: string): string | undefined =>
  message?.replace(/^value(?= )/, label);
