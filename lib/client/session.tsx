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
import { BOOKS_CLOSED, rolesFor, type TeamAccess, type TeamRole } from "@/lib/domain/team-access";
import { ApiError, api } from "./api";
import { connectWallet, signLoginMessage, WalletError } from "./wallet";
import { NO_WALLET_OPTIONS, type WalletId, type WalletOptions } from "./wallets/catalog";

/** A signed-in wallet's own session: its token, its wallet, when the token expires. */
export type OwnSession = { token: string; wallet: string; expiresAt: string };

/**
 * The session the API calls go with. With `books`, the token is a team member's books token
 * (docs/decisions.md, Team access): `wallet` is the owner's (every page shows the owner's
 * books unchanged), and `books.own` keeps the member's own session for going back.
 */
export type Session = OwnSession & {
  books?: { owner: string; name: string | null; role: TeamRole; own: OwnSession };
};

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
  /** Opens another wallet's books (the team session endpoint) with the own token. */
  openBooks: (owner: string, name: string | null) => Promise<void>;
  /** Back to the signed-in wallet's own books (its own token, kept in the session). */
  ownBooks: () => void;
};

const KEY = "stellar-invoicing.session";
const SessionContext = createContext<SessionState | null>(null);

function load(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (typeof s.token !== "string" || typeof s.wallet !== "string") return null;
    if (Date.parse(s.expiresAt) > Date.now() + 30_000) return s;
    // An expired books token: the own one, if it still lives.
    const own = s.books?.own;
    return own && Date.parse(own.expiresAt) > Date.now() + 30_000 ? own : null;
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

  const keep = useCallback((s: Session) => {
    localStorage.setItem(KEY, JSON.stringify(s));
    setSession(s);
  }, []);

  const openBooks = useCallback(
    async (owner: string, name: string | null) => {
      const current = load();
      if (!current) return;
      const own = current.books?.own ?? {
        token: current.token,
        wallet: current.wallet,
        expiresAt: current.expiresAt,
      };
      const r = await api<{ token: string; expiresAt: string; role: TeamRole }>(
        `/api/team/books/${owner}/session`,
        { method: "POST", token: own.token },
      );
      keep({
        token: r.token,
        expiresAt: r.expiresAt,
        wallet: owner,
        books: { owner, name, role: r.role, own },
      });
    },
    [keep],
  );

  const ownBooks = useCallback(() => {
    const own = load()?.books?.own;
    if (own) keep(own);
  }, [keep]);

  const signOut = useCallback(
    async (opts: { everywhere?: boolean } = {}) => {
      const current = load();
      // A books token is signed out, and so is the own session it was opened from.
      const own = current?.books?.own ?? current;
      if (current?.books) {
        await api("/api/auth/session", { method: "DELETE", token: current.token }).catch(
          () => undefined,
        );
      }
      if (own) {
        const path = opts.everywhere ? "/api/auth/sessions" : "/api/auth/session";
        await api(path, { method: "DELETE", token: own.token }).catch(() => undefined);
      }
      forget();
    },
    [forget],
  );

  const value = useMemo(
    () => ({ session, ready, signIn, signOut, forget, walletOptions, openBooks, ownBooks }),
    [session, ready, signIn, signOut, forget, walletOptions, openBooks, ownBooks],
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
  const { session, forget, ownBooks } = useSession();
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
        // The owner revoked this wallet's access: back to its own books.
        if (err instanceof ApiError && err.status === 403 && err.message === BOOKS_CLOSED) {
          ownBooks();
        }
        throw err;
      }
    },
    [token, forget, ownBooks],
  );
}

/**
 * What the open books let this session do (docs/decisions.md, Team access): the owner
 * everything; a team member what its role allows (`rolesFor`, the pipeline's own rule), so
 * pages hide what the server would refuse.
 */
export function useCan(): (access: TeamAccess) => boolean {
  const { session } = useSession();
  const role = session?.books?.role;
  return useCallback((access: TeamAccess) => !role || rolesFor(access).includes(role), [role]);
}

/** A user-facing message for anything sign-in or an API call can throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof WalletError || err instanceof ApiError) return err.message;
  return "Something went wrong. Please try again.";
}
