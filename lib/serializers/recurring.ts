import { isoDay, periodDate } from "@/lib/domain/schedule";
import { asIs, sameInBothForms } from "@/lib/http/forms";
import {
  cronRecurringResult,
  recurringDeleted,
  recurringDetail,
  recurringList,
  recurringResponse,
} from "@/lib/schemas/recurring";
import type { FormB } from "@/lib/schemas/wire";
import {
  type RecurringDetail,
  type RecurringView,
  scheduleOf,
} from "@/lib/services/recurring/schedules";
import { deletedSerializer, iso } from "./common";

const day = (d: Date | null) => (d ? isoDay(d) : null);

const recurring = (r: RecurringView): FormB<typeof recurringResponse> => ({
  id: r.id,
  template: r.template,
  networkPassphrase: r.networkPassphrase,
  interval: r.interval,
  intervalCount: r.intervalCount,
  startDate: isoDay(r.startDate),
  endDate: day(r.endDate),
  count: r.count,
  dueInDays: r.dueInDays,
  autoSend: r.autoSend,
  status: r.pausedAt ? "paused" : r.nextRunAt ? "active" : "ended",
  nextPeriod: r.nextPeriod,
  nextDate: r.pausedAt ? null : day(r.nextRunAt),
  invoicesCreated: r.invoicesCreated,
  lastRefusal:
    r.refusalReason === null
      ? null
      : {
          reason: r.refusalReason,
          period: r.refusedPeriod ?? 0,
          at: (r.refusedAt ?? r.updatedAt).toISOString(),
        },
  pausedAt: iso(r.pausedAt),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const recurringSerializer = sameInBothForms(recurringResponse, recurring);

export const recurringListSerializer = sameInBothForms(
  recurringList,
  (list: RecurringView[]): FormB<typeof recurringList> => list.map(recurring),
);

export const recurringDetailSerializer = sameInBothForms(
  recurringDetail,
  (r: RecurringDetail): FormB<typeof recurringDetail> => ({
    ...recurring(r),
    invoices: r.invoices.map((i) => ({
      id: i.id,
      invoiceNumber: i.invoiceNumber,
      status: i.status,
      period: i.recurringPeriod ?? 0,
      periodDate: isoDay(periodDate(scheduleOf(r), i.recurringPeriod ?? 0)),
      total: i.total,
      currency: i.currency,
      dueDate: iso(i.dueDate),
      createdAt: i.createdAt.toISOString(),
    })),
  }),
);

export const recurringDeletedSerializer = deletedSerializer(recurringDeleted);

export const cronRecurringSerializer = asIs(cronRecurringResult);
