import type { AuthedContext } from "@/lib/services/context";
import { pdfProfile } from "@/lib/services/profile/profile";
import { renderCreditNotePdf } from "./credit-note-pdf";
import { getCreditNote } from "./credit-notes";

/** GET /api/credit-notes/:id/pdf: the owner's credit note drawn with the profile's seller lines. */
export async function creditNotePdf(
  ctx: AuthedContext,
  id: string,
): Promise<{ pdf: Buffer; number: string }> {
  const { note, invoice } = await getCreditNote(ctx, id);
  const profile = await pdfProfile(ctx.db, invoice.freelancerWallet);
  const pdf = await renderCreditNotePdf(note, invoice, {
    sellerLines: (profile?.lines ?? []).filter((l): l is string => Boolean(l)),
  });
  return { pdf, number: note.number };
}
