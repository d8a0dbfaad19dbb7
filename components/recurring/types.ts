/** Form B bodies of a recurring invoice, inferred from their schemas (lib/schemas/recurring.ts). */
export type {
  RecurringBody as Recurring,
  RecurringDetailBody as RecurringDetail,
} from "@/lib/schemas/recurring";
