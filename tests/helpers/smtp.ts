import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One message as the SMTP server received it: the envelope and the parsed message. */
export type CaughtMail = {
  /** Envelope sender and recipients (RCPT TO), what the server was asked to deliver to. */
  envelope: { from: string; to: string[] };
  /** The raw message as sent over the wire (headers included). */
  raw: string;
  parsed: ParsedMail;
};

export type TestSmtp = {
  /** smtp://127.0.0.1:<port> for SMTP_URL (no TLS, no auth). */
  url: string;
  port: number;
  /** Every message accepted so far, in order. */
  messages: CaughtMail[];
  /** Messages to `to` (envelope recipient, case-insensitive). */
  to(address: string): CaughtMail[];
  /** Resolves once at least `count` messages were received (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  /** Answers every RCPT TO with this code and text (e.g. 550, 451) until `accept()`. */
  reject(code: number, message?: string): void;
  /** Answers RCPT TO normally again. */
  accept(): void;
  /** Stops listening (connections are refused) but keeps the port and the messages. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  clear(): void;
  close(): Promise<void>;
};

/**
 * A real SMTP server on a free local port (smtp-server), parsing each message with
 * mailparser: what the service's nodemailer transport talks to in tests. It can go down and
 * up on the same port and refuse recipients with a chosen code (550: final, 451: retry).
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: CaughtMail[] = [];
  let rejection: { code: number; message: string } | undefined;
  let port = 0;
  let server: SMTPServer | undefined;

  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      closeTimeout: 500,
      onRcptTo(_address, _session, callback) {
        if (!rejection) return callback();
        const err = new Error(rejection.message) as Error & { responseCode: number };
        err.responseCode = rejection.code;
        callback(err);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              messages.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                raw: raw.toString("utf8"),
                parsed,
              });
              callback();
            })
            .catch((err: Error) => callback(err));
        });
      },
    });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = make();
      server.on("error", () => {});
      const s = server.server;
      s.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (s.address() as AddressInfo).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
    });

  await listen();

  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    to: (address) =>
      messages.filter((m) => m.envelope.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} emails, received ${messages.length}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      return messages;
    },
    reject(code, message = code >= 500 ? "Mailbox unavailable" : "Try again later") {
      rejection = { code, message };
    },
    accept() {
      rejection = undefined;
    },
    down: stop,
    up: listen,
    clear() {
      messages.length = 0;
    },
    close: stop,
  };
}
