import { asIs, sameInBothForms } from "@/lib/http/forms";
import { booksList, booksSession, teamList, teamMemberResponse } from "@/lib/schemas/team";
import type { FormB } from "@/lib/schemas/wire";
import type { BooksView, TeamMemberView } from "@/lib/services/team/team";
import { iso } from "./common";

const member = (m: TeamMemberView): FormB<typeof teamMemberResponse> => ({
  id: m.id,
  wallet: m.memberWallet,
  role: m.role,
  state: m.state,
  invitedAt: m.invitedAt.toISOString(),
  expiresAt: m.expiresAt.toISOString(),
  acceptedAt: iso(m.acceptedAt),
  revokedAt: iso(m.revokedAt),
});

export const teamMemberSerializer = sameInBothForms(teamMemberResponse, member);
export const teamListSerializer = sameInBothForms(teamList, (list: TeamMemberView[]) =>
  list.map(member),
);
export const booksListSerializer = sameInBothForms(booksList, (list: BooksView[]) =>
  list.map((b) => ({ ...b, expiresAt: b.expiresAt.toISOString() })),
);
export const booksSessionSerializer = asIs(booksSession);
