import { describe, expect, it } from "vitest";
import { remindersSchema } from "@/lib/schemas/invoices";
import { dueReminderOffset, isRemindable, reminderMoment, reminderWhen } from "./reminders";

const due = new Date("2026-03-10T00:00:00Z");
const sent = new Date("2026-03-01T12:00:00Z");
const at = (iso: string) => new Date(iso);

describe("reminder rules", () => {
  it("a reminder is due from 00:00 UTC of the due day plus the offset", () => {
    expect(reminderMoment(new Date("2026-03-10T15:00:00Z"), -3).toISOString()).toBe(
      "2026-03-07T00:00:00.000Z",
    );
    expect(reminderMoment(due, 7).toISOString()).toBe("2026-03-17T00:00:00.000Z");
  });

  it("gives the latest offset whose moment has come, none before the first", () => {
    const offsets = [-3, 0, 7];
    expect(dueReminderOffset(offsets, due, sent, at("2026-03-06T23:59:59Z"))).toBeNull();
    expect(dueReminderOffset(offsets, due, sent, at("2026-03-07T00:00:00Z"))).toBe(-3);
    expect(dueReminderOffset(offsets, due, sent, at("2026-03-12T08:00:00Z"))).toBe(0);
    // Weeks late (no job ran): only the latest, never a burst of the missed ones.
    expect(dueReminderOffset(offsets, due, sent, at("2026-04-30T00:00:00Z"))).toBe(7);
  });

  it("skips offsets whose moment came before the invoice was sent", () => {
    const lateSend = at("2026-03-11T09:00:00Z");
    expect(dueReminderOffset([-3, 0], due, lateSend, at("2026-03-12T00:00:00Z"))).toBeNull();
    expect(dueReminderOffset([-3, 0, 7], due, lateSend, at("2026-03-17T00:00:00Z"))).toBe(7);
  });

  it("speaks of the due date", () => {
    expect(reminderWhen(-1)).toBe("is due in 1 day");
    expect(reminderWhen(-3)).toBe("is due in 3 days");
    expect(reminderWhen(0)).toBe("is due today");
    expect(reminderWhen(7)).toBe("is 7 days overdue");
  });

  it("reminds sent, unpaid, live, subscribed invoices only", () => {
    const base = {
      kind: "INVOICE",
      status: "PENDING",
      sentAt: sent,
      deletedAt: null,
      remindersStoppedAt: null,
    };
    expect(isRemindable(base)).toBe(true);
    expect(isRemindable({ ...base, status: "EXPIRED" })).toBe(true);
    expect(isRemindable({ ...base, status: "PAID" })).toBe(false);
    expect(isRemindable({ ...base, status: "CANCELLED" })).toBe(false);
    expect(isRemindable({ ...base, status: "DRAFT", sentAt: null })).toBe(false);
    expect(isRemindable({ ...base, deletedAt: sent })).toBe(false);
    expect(isRemindable({ ...base, remindersStoppedAt: sent })).toBe(false);
    expect(isRemindable({ ...base, kind: "LINK" })).toBe(false);
  });

  it("validates offsets: whole days -60..60, at most 5, unique", () => {
    expect(remindersSchema.safeParse([-3, 0, 7]).success).toBe(true);
    expect(remindersSchema.safeParse([]).success).toBe(true);
    expect(remindersSchema.safeParse([1.5]).success).toBe(false);
    expect(remindersSchema.safeParse([-61]).success).toBe(false);
    expect(remindersSchema.safeParse([61]).success).toBe(false);
    expect(remindersSchema.safeParse([1, 2, 3, 4, 5, 6]).success).toBe(false);
    expect(remindersSchema.safeParse([1, 1]).error?.issues[0].message).toBe(
      "Reminder offsets must be unique",
    );
  });
});
