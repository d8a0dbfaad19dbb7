import { TAX_SCHEME_NAMES, TAX_SCHEMES } from "@/lib/domain/address";

/** A tax number's type, as every form offers it ("" keeps the number as typed, unchecked). */
export function TaxSchemeOptions() {
  return (
    <>
      <option value="">Not checked (printed as typed)</option>
      {TAX_SCHEMES.map((s) => (
        <option key={s} value={s}>
          {TAX_SCHEME_NAMES[s]}
        </option>
      ))}
    </>
  );
}
