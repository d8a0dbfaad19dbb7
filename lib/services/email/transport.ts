import nodemailer, { type Transporter } from "nodemailer";

/** SMTP timeouts: a hung server cannot hold a claimed message past its lease (deliver.ts). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

const transports = new Map<string, Transporter>();

/** One nodemailer SMTP transport per SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
    transports.set(smtpUrl, t);
  }
  return t;
}

/** The SMTP answer code of a failed send (e.g. 550), or undefined for a connection error. */
export function smtpResponseCode(err: unknown): number | undefined {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" ? code : undefined;
}
