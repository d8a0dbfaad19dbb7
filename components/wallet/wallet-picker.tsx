"use client";

import { Button } from "@/components/ui/button";
import type { WalletId, WalletInfo } from "@/lib/client/wallets/catalog";

/**
 * The wallet picker of sign-in and checkout: one button per wallet, from the plain list in
 * lib/client/wallets/catalog.ts (no wallet code is loaded before a click). For sign-in, a
 * wallet that cannot sign a message is listed last and visibly disabled: greyed, `aria-disabled`
 * (still focusable, so a screen reader reaches it) and described by the reason. Offline the demo
 * wallet comes first (`offeredWallets`). The first wallet is the primary button, the others a
 * compact grid.
 */
export function WalletPicker({
  wallets,
  purpose,
  onPick,
  disabled,
  busy = null,
}: {
  wallets: WalletInfo[];
  purpose: "sign-in" | "pay";
  onPick: (id: WalletId) => void;
  disabled: boolean;
  /** The wallet being used now (its button says so). */
  busy?: WalletId | null;
}) {
  const label = (w: WalletInfo) =>
    busy === w.id
      ? `Waiting for ${w.name}…`
      : purpose === "pay"
        ? `Pay with ${w.name}`
        : `Connect ${w.name}`;
  return (
    <ul
      aria-label={purpose === "pay" ? "Browser wallets" : "Wallets"}
      className="grid grid-cols-1 gap-2 sm:grid-cols-2"
    >
      {wallets.map((w, i) => {
        const usable = purpose === "pay" || w.signsMessages;
        const noteId = `wallet-note-${purpose}-${w.id}`;
        return (
          <li key={w.id} className={i === 0 ? "sm:col-span-2" : undefined}>
            <Button
              variant={usable ? (i === 0 ? "primary" : "secondary") : "ghost"}
              onClick={usable ? () => onPick(w.id) : undefined}
              disabled={disabled && usable}
              aria-disabled={usable ? undefined : true}
              aria-describedby={usable ? undefined : noteId}
              data-unavailable={usable ? undefined : true}
              className={`w-full ${i === 0 ? "py-3 text-base" : ""} ${usable ? "" : "cursor-not-allowed border border-dashed border-slate-400 bg-slate-100 dark:border-slate-500 dark:bg-slate-800"}`}
            >
              {label(w)}
            </Button>
            {!usable && (
              <p
                id={noteId}
                className="mt-1 text-center text-xs text-slate-600 dark:text-slate-300"
              >
                Not available for sign-in: {w.name} cannot sign the login message. It can still pay
                invoices.
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
