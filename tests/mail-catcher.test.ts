import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InvoicePdfData, renderInvoicePdf } from "@/lib/services/invoices/pdf-render";
import { type MailCatcher, startMailCatcher } from "@/scripts/mail-catcher";

// The offline mail catcher (scripts/mail-catcher.ts, README "Trying it offline"): a real SMTP
// server and its page, on free local ports.

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(() => catcher?.stop());

describe("mail catcher", () => {
  it("lists each message caught (time, to, subject) and shows its HTML and text, escaped", async () => {
    const transport = nodemailer.createTransport(catcher.smtpUrl);
    await transport.sendMail({
      from: "Billing <billing@example.com>",
      to: "ada@example.com",
      subject: "Invoice INV-0001 <b>due</b>",
      text: "Pay now: http://127.0.0.1:3000/pay/abc",
      html: "<p>Pay <a href='http://127.0.0.1:3000/pay/abc'>now</a></p>",
    });
    transport.close();

    const list = await (await fetch(catcher.url)).text();
    expect(list).toContain("ada@example.com");
    expect(list).toContain("Invoice INV-0001 &lt;b&gt;due&lt;/b&gt;");
    expect(list).not.toContain("<b>due</b>");
    expect(list).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);

    const one = await (await fetch(`${catcher.url}/messages/1`)).text();
    expect(one).toContain("Pay now: http://127.0.0.1:3000/pay/abc");
    const html = await fetch(`${catcher.url}/messages/1/html`);
    expect(html.headers.get("content-security-policy")).toMatch(/^sandbox/);
    expect(await html.text()).toContain("<a href='http://127.0.0.1:3000/pay/abc'>now</a>");
    expect((await fetch(`${catcher.url}/messages/9`)).status).toBe(404);
  });

  it("shows each attachment (name, type, size) and downloads the invoice PDF byte for byte (issue 28)", async () => {
    const invoice: InvoicePdfData = {
      invoiceNumber: "INV-0007",
      status: "PENDING",
      title: "Website redesign",
      description: null,
      notes: null,
      paymentTerms: null,
      buyerReference: null,
      supplyDate: null,
      periodStart: null,
      periodEnd: null,
      taxCurrency: null,
      freelancerWallet: "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
      freelancerName: "Grace Freelancer",
      freelancerEmail: "grace@example.com",
      freelancerCompany: null,
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      clientCompany: null,
      clientAddress: null,
      clientTaxId: null,
      clientTaxScheme: null,
      clientPostalAddress: null,
      clientIsBusiness: null,
      subtotal: "250.0000000",
      taxRate: "0.00",
      taxAmount: "0.0000000",
      discount: "0.0000000",
      total: "250.0000000",
      currency: "XLM",
      networkPassphrase: "Test SDF Network ; September 2015",
      dueDate: null,
      createdAt: new Date("2026-01-05T10:00:00.000Z"),
      sentAt: new Date("2026-01-06T10:00:00.000Z"),
      paidAt: null,
      transactionHash: null,
      lineItems: [
        { description: "Design", quantity: "1.00", rate: "250.0000000", amount: "250.0000000" },
      ],
    };
    // The invoice PDF as the app renders it (compressed: binary bytes, not only text).
    const pdf = await renderInvoicePdf(invoice, { paymentLink: "http://127.0.0.1:3000/pay/abc" });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const transport = nodemailer.createTransport(catcher.smtpUrl);
    // The same shape lib/services/email/deliver.ts hands nodemailer.
    await transport.sendMail({
      from: "Billing <billing@example.com>",
      to: "ada@example.com",
      subject: "Invoice INV-0007 from Grace Freelancer: 250 XLM",
      text: "You have a new invoice.",
      html: "<p>You have a new invoice.</p>",
      attachments: [
        { filename: "INV-0007.pdf", content: pdf, contentType: "application/pdf" },
        {
          filename: 'notes "draft".html',
          content: Buffer.from("<script>parent.x=1</script>"),
          contentType: "text/html",
        },
      ],
    });
    transport.close();
    const id = catcher.messages.length;

    // The list links the file; the message page names it with its type and size.
    const list = await (await fetch(catcher.url)).text();
    expect(list).toContain(`href="/messages/${id}/attachments/1" download>INV-0007.pdf</a>`);
    const one = await (await fetch(`${catcher.url}/messages/${id}`)).text();
    expect(one).toContain("Attachments (2)");
    expect(one).toContain("<td>INV-0007.pdf</td><td>application/pdf</td>");
    const kb = `${(pdf.length / 1024).toFixed(1)} KB`;
    expect(one).toContain(`<td>${kb}</td>`);
    expect(one).toContain(`href="/messages/${id}/attachments/1" download="INV-0007.pdf"`);
    // Names are escaped like everything else on the page.
    expect(one).toContain("notes &quot;draft&quot;.html");
    expect(one).not.toContain('notes "draft"');

    // The download: the exact bytes, as a PDF.
    const download = await fetch(`${catcher.url}/messages/${id}/attachments/1`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(
      "inline; filename*=UTF-8''INV-0007.pdf",
    );
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.equals(pdf)).toBe(true);

    // An attached HTML file runs nothing on the catcher's origin.
    const html = await fetch(`${catcher.url}/messages/${id}/attachments/2`);
    expect(html.headers.get("content-security-policy")).toBe("sandbox");
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${catcher.url}/messages/${id}/attachments/3`)).status).toBe(404);

    // messages.json lists them by name, type, size and URL, without the bytes.
    const json = (await (await fetch(`${catcher.url}/messages.json`)).json()) as {
      attachments: unknown[];
    }[];
    expect(json[id - 1].attachments[0]).toEqual({
      filename: "INV-0007.pdf",
      contentType: "application/pdf",
      size: pdf.length,
      url: `/messages/${id}/attachments/1`,
    });
  });
});
