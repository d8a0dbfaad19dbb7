"use client";

import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { ApiError, api } from "./api";
import { connectWallet, signLoginMessage, WalletError } from "./wallet";
import { NO_WALLET_OPTIONS, type WalletId, type WalletOptions } from "./wallets/catalog";

export type Session = { token: string; wallet: string; expiresAt: string };

type SessionState = {
  session: Session | null;
  /** False until localStorage has been read (avoids a flash of the signed-out view). */
  ready: boolean;
  /** Connects `wallet` (the one chosen in the picker) and signs the login message with it. */
  signIn: (wallet: WalletId) => Promise<void>;
  /** What the server lets the pickers offer (WalletConnect, the demo wallet). */
  walletOptions: WalletOptions;
  /** Revokes the token on the server (every token of the wallet with `everywhere`), then
   * forgets it here; the local session goes even if the server cannot be reached. */
  signOut: (opts?: { everywhere?: boolean }) => Promise<void>;
  /** Forgets the session here only (its token is already refused). */
  forget: () => void;
};

const KEY = "stellar-invoicing.session";
const SessionContext = createContext<SessionState | null>(null);

function load(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (typeof s.token !== "string" || typeof s.wallet !== "string") return null;
    return Date.parse(s.expiresAt) > Date.now() + 30_000 ? s : null;
  } catch {
    return null;
  }
}

/** The session survives reloads (localStorage) until the token's own expiry. */
export function SessionProvider({
  children,
  walletOptions = NO_WALLET_OPTIONS,
}: {
  children: ReactNode;
  walletOptions?: WalletOptions;
}) {
  const [session, setSession] = useState<Session | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setSession(load());
    setReady(true);
    const onStorage = () => setSession(load());
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const signIn = useCallback(
    async (id: WalletId) => {
      // The demo wallet is funded on every local ledger, so it can receive what it bills.
      const fundOn = Object.keys(walletOptions.demoLedgers) as ("testnet" | "mainnet")[];
      const wallet = await connectWallet(id, walletOptions, fundOn);
      const { nonce, message } = await api<{ nonce: string; message: string }>("/api/auth/nonce", {
        method: "POST",
        body: { walletAddress: wallet },
      });
      const signature = await signLoginMessage(message, wallet, id, walletOptions);
      const r = await api<{ token: string; expiresAt: string; walletAddress: string }>(
        "/api/auth/session",
        { method: "POST", body: { walletAddress: wallet, nonce, signature } },
      );
      const s: Session = { token: r.token, expiresAt: r.expiresAt, wallet: r.walletAddress };
      localStorage.setItem(KEY, JSON.stringify(s));
      setSession(s);
    },
    [walletOptions],
  );

  const forget = useCallback(() => {
    localStorage.removeItem(KEY);
    setSession(null);
  }, []);

  const signOut = useCallback(
    async (opts: { everywhere?: boolean } = {}) => {
      const token = load()?.token;
      if (token) {
        const path = opts.everywhere ? "/api/auth/sessions" : "/api/auth/session";
        await api(path, { method: "DELETE", token }).catch(() => undefined);
      }
      forget();
    },
    [forget],
  );

  const value = useMemo(
    () => ({ session, ready, signIn, signOut, forget, walletOptions }),
    [session, ready, signIn, signOut, forget, walletOptions],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error("useSession outside SessionProvider");
  return ctx;
}

/**
 * The API with the session's token. A 401 (token expired or revoked) signs the user out, so
 * pages fall back to the sign-in panel instead of showing a broken view.
 */
export function useApi() {
  const { session, forget } = useSession();
  const token = session?.token ?? null;
  return useCallback(
    async <T,>(
      path: string,
      opts: { method?: string; body?: unknown; signal?: AbortSignal } = {},
    ) => {
      try {
        return await api<T>(path, { ...opts, token });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401 && token) forget();
        throw err;
      }
    },
    [token, forget],
  );
}

/** A user-facing message for anything sign-in or an API call can throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof WalletError || err instanceof ApiError) return err.message;
  return "Something went wrong. Please try again.";
}
