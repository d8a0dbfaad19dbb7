import type { MessageKey } from "./messages/en";

// The checkout's client components get their language's messages from the server page (the
// `checkout.*` block, `messagesFor`) instead of importing the catalogues and the ICU formatter:
// the payer's first load stays small (docs/decisions.md, Languages). Those messages use plain
// `{name}` arguments only, which `fill` substitutes exactly as intl-messageformat would
// (lib/i18n/fill.test.ts checks every one in every language against `t`).

export type Messages = Partial<Record<MessageKey, string>>;
export type FillValues = Record<string, string | number>;

/** The message `key` of `messages` with its `{name}` arguments replaced by `values`. */
export function fill(messages: Messages, key: MessageKey, values: FillValues = {}): string {
  const message = messages[key];
  if (message === undefined) return key;
  return message.replace(/\{\s*([A-Za-z0-9_]+)\s*\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** A translator over one language's messages: `const tr = filler(messages); tr("checkout.x")`. */
export const filler = (messages: Messages) => (key: MessageKey, values?: FillValues) =>
  fill(messages, key, values);
