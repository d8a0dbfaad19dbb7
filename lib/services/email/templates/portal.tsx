import { eq, inArray } from "drizzle-orm";
import { clients, portalLinks } from "@/db/schema";
import { greeting } from "@/emails/layout";
import { PortalLinkEmail, StatementEmail } from "@/emails/portal";
import { invoiceLanguage } from "@/lib/domain/invoice-defaults";
import { translator } from "@/lib/i18n";
import { formatDay } from "@/lib/i18n/format";
import { logger } from "@/lib/logger";
import type { PortalLinkPayload } from "@/lib/services/portal/link";
import { portalSignInUrl } from "@/lib/services/portal/link";
import type { StatementEmailPayload } from "@/lib/services/portal/owner";
import { linkToken } from "@/lib/services/portal/tokens";
import { businessName } from "@/lib/services/portal/view";
import { getProfile } from "@/lib/services/profile/profile";
import { statementFile, statementOf } from "@/lib/services/statements/statement";
import type { EmailTemplate } from "../render";

/**
 * The client portal's sign-in email (docs/decisions.md, Client portal): the service's letter,
 * one button per freelancer. The tokens are made here from the link ids (the outbox keeps no
 * token).
 */
export const portalLinkTemplate: EmailTemplate = async ({ message, ctx, frame }) => {
  const { linkIds, lang } = message.payload as PortalLinkPayload;
  const tr = translator(lang);
  const rows = await ctx.db.select().from(portalLinks).where(inArray(portalLinks.id, linkIds));
  const links = await Promise.all(
    rows
      .sort((a, b) => linkIds.indexOf(a.id) - linkIds.indexOf(b.id))
      .map(async (r) => ({
        href: portalSignInUrl(ctx.config.appUrl, linkToken(ctx.config.jwtSecret, r.id)),
        label: tr("portal.emailButton", {
          business: businessName(await getProfile(ctx.db, r.ownerWallet)),
        }),
      })),
  );
  return {
    element: (
      <PortalLinkEmail
        {...frame}
        lang={lang}
        preview={tr("portal.emailSubject", { service: ctx.config.serviceName })}
        greeting={greeting(lang, null)}
        body={tr("portal.emailBody")}
        links={links}
        ignore={tr("portal.emailIgnore")}
      />
    ),
  };
};

/** A statement of account from the freelancer, its PDF attached, with the portal's hint. */
export const statementTemplate: EmailTemplate = async ({ message, ctx, frame, profile }) => {
  const p = message.payload as StatementEmailPayload;
  const [client] = await ctx.db.select().from(clients).where(eq(clients.id, p.clientId));
  if (!client) throw new Error("The client no longer exists");
  const lang = invoiceLanguage(null, client, profile);
  const tr = translator(lang);
  const owner = {
    db: ctx.db,
    config: ctx.config,
    now: () => new Date(p.issuedAt),
    logger,
    requestId: `email:${message.id}`,
    wallet: message.wallet,
  };
  const statement = await statementOf(owner, client, p);
  const file = await statementFile(owner, statement, "pdf");
  const day = (iso: string) => formatDay(new Date(`${iso}T00:00:00Z`), lang);
  return {
    element: (
      <StatementEmail
        {...frame}
        lang={lang}
        preview={tr("statement.title")}
        greeting={greeting(lang, client.name)}
        body={tr("statement.emailBody", { from: day(p.from), to: day(p.to) })}
        portal={tr("statement.emailPortal", { url: `${ctx.config.appUrl}/portal` })}
      />
    ),
    attachments: [
      { filename: file.filename, content: Buffer.from(file.body), contentType: file.contentType },
    ],
  };
};
