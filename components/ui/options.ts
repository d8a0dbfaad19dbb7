import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import { NETWORK_LABELS, NETWORK_NAMES } from "@/lib/format";

/** `[value, label]` pairs for OptionsSelect (components/ui/field.tsx). */
export type Options = readonly (readonly [string, string])[];

/** Options whose label is the value itself. */
export const sameOptions = (values: readonly string[]): Options => values.map((v) => [v, v]);

export const CURRENCY_OPTIONS = sameOptions(CURRENCIES);
export const NETWORK_OPTIONS: Options = NETWORK_NAMES.map((n) => [n, NETWORK_LABELS[n]]);

/** "Price in": the asset itself ("" ; its code in the label), or USD / EUR paid in the asset. */
export const priceOptions = (asset: string): Options => [
  ["", `${asset} (the asset paid)`],
  ...sameOptions(PRICE_CURRENCIES),
];
