import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
