"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field, Hint } from "@/components/ui/field";
import type { AddressValues } from "@/lib/client/address-form";

type Box = keyof AddressValues;

/**
 * A structured postal address's boxes (street, postcode, city, region, country code), the same
 * in the profile, the client form and the invoice form. `field(box)` gives a box's
 * registration and its error.
 */
export function AddressFields({
  field,
  autoComplete = true,
}: {
  field: (box: Box) => UseFormRegisterReturn & { error?: string };
  /** The seller's own address autofills; a client's must not take the user's. */
  autoComplete?: boolean;
}) {
  const ac = (token: string) => (autoComplete ? token : "off");
  return (
    <>
      <Field label="Street" autoComplete={ac("address-line1")} {...field("line1")} />
      <Field label="Street, line 2" autoComplete={ac("address-line2")} {...field("line2")} />
      <Field label="Postcode" autoComplete={ac("postal-code")} {...field("postcode")} />
      <Field label="City" autoComplete={ac("address-level2")} {...field("city")} />
      <Field label="Region" autoComplete={ac("address-level1")} {...field("region")} />
      <Field
        label="Country code"
        maxLength={2}
        autoComplete={ac("country")}
        {...field("country")}
        hint={<Hint>ISO code, e.g. DE, FR.</Hint>}
      />
    </>
  );
}
