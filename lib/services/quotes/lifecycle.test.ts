import { describe, expect, it } from "vitest";
import { QUOTE_EVENT_TYPES } from "@/lib/domain/quote-state";
import { eventData } from "@/lib/services/events/outbox";
import { quoteEvent } from "./lifecycle";
import type { QuoteRow } from "./store";

const at = new Date("2026-11-28T10:00:00.000Z");
const quote: QuoteRow = {
  id: "qt1aaaaaaaaaaaaaaaaaaaaa",
  wallet: `G${"A".repeat(55)}`,
  number: "QT-0007",
  status: "CONVERTED",
  body: {},
  clientName: "Ada",
  clientEmail: "ada@example.com",
  title: "Website",
  language: "de",
  currency: "USDC",
  priceCurrency: null,
  networkPassphrase: "Test SDF Network ; September 2015",
  lineItems: [],
  subtotal: "100.0000000",
  taxRate: "0.00",
  taxAmount: "0.0000000",
  discount: "0.0000000",
  total: "100.0000000",
  taxBreakdown: null,
  validUntil: "2026-12-31",
  onAccept: "draft",
  sentAt: at,
  acceptedAt: at,
  acceptedName: "Ada Lovelace",
  acceptedIp: "127.0.0.1",
  declinedAt: at,
  declineReason: "Too dear",
  expiredAt: null,
  invoiceId: "inv1aaaaaaaaaaaaaaaaaaaa",
  searchText: null,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};

describe("quote events", () => {
  it("every quote event's builder output is what its schema accepts, unchanged", () => {
    for (const type of QUOTE_EVENT_TYPES) {
      const event = quoteEvent(type, quote, {
        actor: "CLIENT",
        at,
        invoice: { id: "inv1aaaaaaaaaaaaaaaaaaaa", invoiceNumber: "INV-0003", status: "DRAFT" },
      });
      expect(eventData(event as Parameters<typeof eventData>[0]), type).toStrictEqual(event.data);
    }
  });

  it("quote.accepted names the invoice made and who accepted", () => {
    const event = quoteEvent("quote.accepted", quote, {
      actor: "CLIENT",
      at,
      invoice: { id: "inv1aaaaaaaaaaaaaaaaaaaa", invoiceNumber: "INV-0003", status: "PENDING" },
    });
    expect(event.data).toMatchObject({
      number: "QT-0007",
      acceptedName: "Ada Lovelace",
      invoiceId: "inv1aaaaaaaaaaaaaaaaaaaa",
      invoiceNumber: "INV-0003",
      invoiceStatus: "PENDING",
    });
    expect(() => quoteEvent("quote.accepted", quote, { actor: "CLIENT", at })).toThrow(
      /needs the invoice/,
    );
  });
});
