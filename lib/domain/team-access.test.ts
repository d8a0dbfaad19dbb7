import { describe, expect, it } from "vitest";
import { rolesFor, teamAccessOf, teamRefusal, teamStateOf } from "./team-access";

describe("team access (lib/domain/team-access.ts)", () => {
  it("derives the default from the scopes and the method", () => {
    expect(teamAccessOf({ method: "POST" })).toBe("owner");
    expect(teamAccessOf({ method: "GET", scope: ["webhooks:write"] })).toBe("owner");
    expect(teamAccessOf({ method: "PUT", scope: ["profile:write"] })).toBe("owner");
    expect(
      teamAccessOf({ method: "GET", scope: ["invoices:read", "clients:read", "profile:write"] }),
    ).toBe("read");
    expect(teamAccessOf({ method: "GET", scope: ["invoices:read"] })).toBe("read");
    expect(teamAccessOf({ method: "POST", scope: ["invoices:write"] })).toBe("write");
    expect(teamAccessOf({ method: "POST", scope: ["invoices:write"], team: "owner" })).toBe(
      "owner",
    );
  });

  it("lets an accountant read, a member read and write, neither do the owner's", () => {
    expect(rolesFor("read")).toEqual(["accountant", "member"]);
    expect(teamRefusal("accountant", "write")).toMatch(/^Your role \(accountant\)/);
    expect(teamRefusal("member", "write")).toBeNull();
    expect(teamRefusal("member", "owner")).toMatch(/^Your role \(member\)/);
    expect(teamRefusal("accountant", "read")).toBeNull();
  });

  it("an invitation is pending, then expired 7 days on unless accepted", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const row = { acceptedAt: null, revokedAt: null, expiresAt: new Date("2026-01-08T00:00:00Z") };
    expect(teamStateOf(row, at)).toBe("pending");
    expect(teamStateOf(row, new Date("2026-01-08T00:00:00Z"))).toBe("expired");
    expect(teamStateOf({ ...row, acceptedAt: at }, new Date("2026-02-01T00:00:00Z"))).toBe(
      "active",
    );
    expect(teamStateOf({ ...row, acceptedAt: at, revokedAt: at }, at)).toBe("revoked");
  });
});
