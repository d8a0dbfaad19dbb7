import { TEAM_ROLES } from "@/lib/domain/team-access";
import { isValidWalletAddress } from "@/lib/stellar/keys";
import { z } from "@/lib/zod";
import { type FormB, id, timestamp, wallet, wire } from "./wire";

/** Team access (docs/decisions.md, Team access). */

const role = z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(", ")}` }).meta({
  description:
    "`accountant`: reads the books (invoices, quotes, credit notes, payments, clients, statements, exports, the dashboard); `member`: everything but API keys, webhooks, the profile, the team and refunds",
  example: "accountant",
});

/** `POST /api/team`. */
export const inviteMemberSchema = z
  .object({
    wallet: z
      .string({ error: "wallet is required" })
      .trim()
      .refine(
        isValidWalletAddress,
        "wallet must be a Stellar account address (G..., 56 characters)",
      )
      .describe("The invited wallet (G..., 56 characters)"),
    role,
  })
  .strict();
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;

/** `PATCH /api/team/{id}`. */
export const changeRoleSchema = z.object({ role }).strict();

/** `/api/team/books/{owner}/session`. */
export const ownerPath = z.object({
  owner: z.string().meta({ description: "The owner's wallet (G...)", example: "GB..." }),
});

// ---- responses (lib/serializers/team.ts) ---------------------------------------------------

const state = z.enum(["pending", "active", "expired", "revoked"]).meta({
  description:
    "`pending`: invited, not yet accepted (the first books session accepts); `expired`: not accepted within 7 days; `active`; `revoked`",
});

const teamMember = z
  .object({
    id,
    wallet: wallet.meta({ description: "The member's wallet" }),
    role,
    state,
    invitedAt: timestamp,
    expiresAt: timestamp.meta({ description: "When a pending invitation expires" }),
    acceptedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: "TeamMember" });

export const teamMemberResponse = wire("TeamMemberResponse", teamMember);
export const teamList = wire("TeamList", z.array(teamMember));

const books = z
  .object({
    owner: wallet.meta({ description: "The wallet whose books these are" }),
    businessName: z.string().nullable().meta({
      description: "The owner's company or display name (profile)",
      example: "Ada Studio",
    }),
    role,
    state,
    expiresAt: timestamp,
  })
  .meta({ id: "TeamBooks" });
export const booksList = wire("TeamBooksList", z.array(books));

export const booksSession = wire(
  "BooksSession",
  z.object({
    token: z.string().meta({
      description: "HS256 JWT valid one hour, acting on the owner's books as the member",
    }),
    expiresAt: timestamp,
    walletAddress: wallet.meta({ description: "The member's own wallet" }),
    books: wallet.meta({ description: "The owner's wallet: the books this token opens" }),
    role,
  }),
);

export type TeamMemberBody = FormB<typeof teamMemberResponse>;
export type TeamBooksBody = FormB<typeof booksList>[number];
export type BooksSessionBody = FormB<typeof booksSession>;
