import { Decimal } from "@/lib/domain/money";
import { all, type El, one, parseCii, text } from "./cii-read";

// The EN 16931 rules on a CII document's amounts that lib/einvoice relies on, written as our
// own checks (the official Schematron is run by hand, docs/decisions.md, E-invoices): each
// broken rule is one message naming it. Empty: the document adds up.

export const SETTLEMENT = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement";
export const SUMS = `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
export const LINES = "rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem";
export const LINE_TOTAL =
  "ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount";

/** An amount as written; a malformed one throws, and the check reports it. */
const D = (v: string | null | undefined) => {
  if (!/^-?\d+(\.\d+)?$/.test(v ?? "")) throw new Error(`not an amount: ${v}`);
  return new Decimal(v as string);
};
const sum = (values: (string | null | undefined)[]) =>
  values.reduce((s, v) => s.plus(D(v)), new Decimal("0"));

export const allowancesOf = (root: El) =>
  all(root, `${SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge`).filter(
    (a) => text(a, "ram:ChargeIndicator/udt:Indicator") === "false",
  );

export function en16931Violations(xml: string): string[] {
  try {
    return violations(parseCii(xml));
  } catch (e) {
    return [`unreadable: ${(e as Error).message}`];
  }
}

function violations(root: El): string[] {
  const broken: string[] = [];
  const rule = (ok: boolean, message: string) => {
    if (!ok) broken.push(message);
  };
  const sums = one(root, SUMS);
  if (!sums) return ["BR-12..15: no document totals"];
  const currency = text(root, `${SETTLEMENT}/ram:InvoiceCurrencyCode`);
  const lines = all(root, LINES);
  const lineTotals = lines.map((l) => text(l, LINE_TOTAL));
  const rows = all(root, `${SETTLEMENT}/ram:ApplicableTradeTax`);
  const allowances = allowancesOf(root);
  rule(lines.length > 0, "BR-16: no line");

  // BR-DEC-*: document amounts have at most 2 decimals.
  const amounts = [
    ...lineTotals,
    ...rows.flatMap((r) => [text(r, "ram:BasisAmount"), text(r, "ram:CalculatedAmount")]),
    ...allowances.map((a) => text(a, "ram:ActualAmount")),
    ...[...sums.childNodes].filter((n) => n.nodeType === 1).map((n) => n.textContent),
  ];
  for (const a of amounts) rule(/^-?\d+(\.\d{1,2})?$/.test(a ?? ""), `BR-DEC: ${a}`);

  // BR-CO-10..16: the totals.
  const lineTotal = D(text(sums, "ram:LineTotalAmount"));
  const allowance = D(text(sums, "ram:AllowanceTotalAmount") ?? "0");
  const basis = D(text(sums, "ram:TaxBasisTotalAmount"));
  const taxTotals = all(sums, "ram:TaxTotalAmount").filter(
    (t) => t.getAttribute("currencyID") === currency,
  );
  const tax = D(taxTotals[0]?.textContent);
  const grand = D(text(sums, "ram:GrandTotalAmount"));
  const rounding = D(text(sums, "ram:RoundingAmount") ?? "0");
  const prepaid = D(text(sums, "ram:TotalPrepaidAmount") ?? "0");
  rule(lineTotal.eq(sum(lineTotals)), "BR-CO-10: line total is not the lines' sum");
  rule(
    allowance.eq(sum(allowances.map((a) => text(a, "ram:ActualAmount")))),
    "BR-CO-11: allowance total is not the allowances' sum",
  );
  rule(basis.eq(lineTotal.minus(allowance)), "BR-CO-13: tax basis is not lines less allowances");
  rule(
    tax.eq(sum(rows.map((r) => text(r, "ram:CalculatedAmount")))),
    "BR-CO-14: tax total is not the rows' sum",
  );
  rule(taxTotals.length === 1, "BR-CO-15: one tax total in the invoice currency");
  rule(grand.eq(basis.plus(tax)), "BR-CO-15: grand total is not basis plus tax");
  rule(
    D(text(sums, "ram:DuePayableAmount")).eq(grand.minus(prepaid).plus(rounding)),
    "BR-CO-16: amount due is not grand total less prepaid plus rounding",
  );

  // Each row: its lines less its allowances (BR-S-08, BR-AE-08...), its tax (BR-CO-17), its
  // rate (BR-S-05...), its reason (BR-E-10...), one row per category and rate (BR-S-01...).
  const keys = new Set<string>();
  for (const row of rows) {
    const category = text(row, "ram:CategoryCode") ?? "";
    const rate = text(row, "ram:RateApplicablePercent");
    const key = `${category}|${category === "O" ? "" : rate}`;
    rule(!keys.has(key), `BR-${category}-01: two rows for ${key}`);
    keys.add(key);
    // An O line has no rate (BR-O-05): its category alone names its row.
    const same = (tax: El | undefined) =>
      !!tax &&
      text(tax, "ram:CategoryCode") === category &&
      (category === "O" || text(tax, "ram:RateApplicablePercent") === rate);
    const mine = lines.filter((l) =>
      same(one(l, "ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax")),
    );
    const off = allowances.filter((a) => same(one(a, "ram:CategoryTradeTax")));
    const rowBasis = D(text(row, "ram:BasisAmount"));
    rule(mine.length > 0, `BR-${category}-01: row ${key} has no line`);
    rule(
      rowBasis.eq(
        sum(mine.map((l) => text(l, LINE_TOTAL))).minus(
          sum(off.map((a) => text(a, "ram:ActualAmount"))),
        ),
      ),
      `BR-${category}-08: row ${key} basis is not its lines less its allowances`,
    );
    const expected = rowBasis
      .times(rate ?? "0")
      .div("100")
      .round(2, Decimal.roundHalfUp);
    rule(
      D(text(row, "ram:CalculatedAmount")).minus(expected).abs().lte("0.01"),
      `BR-CO-17: row ${key} tax is more than a cent from its basis at its rate`,
    );
    if (category === "S") rule(D(rate).gt("0"), "BR-S-05: S at 0 %");
    else if (category !== "O" || rate) rule(D(rate).eq("0"), `BR-${category}-05: rate above 0`);
    const exempt = ["E", "AE", "K", "G", "O"].includes(category);
    const reason = text(row, "ram:ExemptionReason") ?? text(row, "ram:ExemptionReasonCode");
    rule(Boolean(reason) === exempt, `BR-${category}-10: exemption reason`);
  }
  return broken;
}
