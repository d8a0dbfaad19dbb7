import { createId } from "@paralleldrive/cuid2";

/**
 * Opaque, collision-resistant, non-sequential ids (CUID style, docs/decisions.md). cuid2 is
 * used rather than UUIDs because its ids are URL-safe, shorter and leak neither time nor host.
 */
export const newId = (): string => createId();
export const newEventId = (): string => `evt_${createId()}`;
export const isId = (value: string): boolean => /^[a-z0-9]{20,40}$/.test(value);
