import { sameInBothForms } from "@/lib/http/forms";
import { recipientReadiness, trustlineResult, trustlineTransaction } from "@/lib/schemas/readiness";
import type { FormB } from "@/lib/schemas/wire";
import type { RecipientReadiness } from "@/lib/services/payments/recipient-readiness";
import type { TrustlineResult, TrustlineTransaction } from "@/lib/services/payments/trustline";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";

/** GET /api/wallet/readiness. */
export const readinessSerializer = sameInBothForms(
  recipientReadiness,
  (r: RecipientReadiness): FormB<typeof recipientReadiness> => ({
    status: r.status,
    problem: r.problem,
    wallet: r.wallet,
    networkPassphrase: NETWORK_PASSPHRASES[r.network],
    asset: r.asset,
    message: r.message,
    fix: r.fix,
    canAddTrustline: r.canAddTrustline,
  }),
);

/** 200 of POST /api/wallet/trustline. */
export const trustlineTransactionSerializer = sameInBothForms(
  trustlineTransaction,
  (t: TrustlineTransaction): FormB<typeof trustlineTransaction> => t,
);

/** 200 of POST /api/wallet/trustline/submit. */
export const trustlineResultSerializer = sameInBothForms(
  trustlineResult,
  (t: TrustlineResult): FormB<typeof trustlineResult> => t,
);
