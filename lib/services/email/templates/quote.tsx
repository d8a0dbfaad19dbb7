import { eq } from "drizzle-orm";
import { salesQuotes } from "@/db/schema";
import { QuoteEmail } from "@/emails/quote";
import { formatPriced } from "@/lib/format";
import { translator } from "@/lib/i18n";
import { formatDay, localizeAmount } from "@/lib/i18n/format";
import { type QuoteEmailPayload, quotePageUrl } from "@/lib/services/quotes/quote-email";
import type { EmailTemplate } from "../render";

/** The quote email, in the quote's language, with the link to the client's page. */
export const quoteTemplate: EmailTemplate = async ({ message, ctx, frame }) => {
  const { quoteId } = message.payload as QuoteEmailPayload;
  const [quote] = await ctx.db.select().from(salesQuotes).where(eq(salesQuotes.id, quoteId));
  if (!quote) throw new Error("The quote no longer exists");
  const lang = quote.language;
  const tr = translator(lang);
  return {
    element: (
      <QuoteEmail
        {...frame}
        lang={lang}
        preview={tr("quote.heading", { number: quote.number })}
        greeting={tr("quote.emailGreeting", { name: quote.clientName })}
        body={tr("quote.emailBody", { sender: frame.sender, number: quote.number })}
        facts={[
          {
            label: tr("quote.emailTotal"),
            value: localizeAmount(formatPriced(quote.total, quote), lang),
            big: true,
          },
          {
            label: tr("quote.emailValidUntil"),
            value: formatDay(new Date(`${quote.validUntil}T00:00:00Z`), lang),
          },
        ]}
        href={quotePageUrl(ctx.config.appUrl, quote.id)}
        button={tr("quote.emailButton")}
      />
    ),
  };
};
