"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import type { WalletOptions } from "@/lib/client/wallets/catalog";
import { type Language, type MessageKey, translator } from "@/lib/i18n";
import { LANGUAGES } from "@/lib/i18n/languages";
import { PortalDocuments } from "./portal-documents";
import { PortalSignIn } from "./portal-sign-in";
import { PortalStatementCard } from "./portal-statement";
import type { PortalView, Translate } from "./types";

type State =
  | { kind: "loading" }
  | { kind: "out" }
  | { kind: "in"; view: PortalView }
  | {
      kind: "error";
      text: string;
    };

/** The browser's language when the catalogues have it (signed out), else English. */
function browserLanguage(): Language {
  if (typeof navigator === "undefined") return "en";
  const code = navigator.language.slice(0, 2) as Language;
  return LANGUAGES.includes(code) ? code : "en";
}

const translate = (lang: Language): Translate => {
  const tr = translator(lang);
  return (key, values) => tr(key as MessageKey, values);
};

/**
 * The portal in the browser: asks /api/portal (the cookie goes along); a 401 shows the sign-in
 * forms, a 200 the client's documents in the client's language.
 */
export function PortalApp({
  expired,
  walletOptions,
}: {
  expired: boolean;
  walletOptions: WalletOptions;
}) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const [lang, setLang] = useState<Language>("en");

  const load = useCallback(async () => {
    const res = await fetch("/api/portal", { cache: "no-store" }).catch(() => null);
    if (!res) return setState({ kind: "error", text: "The server could not be reached." });
    if (res.status === 401) {
      setLang(browserLanguage());
      return setState({ kind: "out" });
    }
    if (!res.ok) return setState({ kind: "error", text: `Error ${res.status}` });
    const view = (await res.json()) as PortalView;
    setLang(LANGUAGES.includes(view.language as Language) ? (view.language as Language) : "en");
    setState({ kind: "in", view });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const t = useMemo(() => translate(lang), [lang]);

  async function signOut() {
    await fetch("/api/portal/sign-out", { method: "POST" }).catch(() => null);
    setState({ kind: "out" });
  }

  return (
    <main lang={lang} className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:py-10">
      {state.kind === "loading" && (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          …
        </p>
      )}
      {state.kind === "error" && <Alert>{state.text}</Alert>}
      {state.kind === "out" && (
        <PortalSignIn t={t} expired={expired} walletOptions={walletOptions} onSignedIn={load} />
      )}
      {state.kind === "in" && (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="text-sm text-slate-600 dark:text-slate-300">{t("portal.title")}</p>
              <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
                {state.view.business}
              </h1>
              <p className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere] dark:text-slate-200">
                {t("portal.signedInAs", { email: state.view.client.email })}
              </p>
            </div>
            <Button variant="secondary" onClick={signOut}>
              {t("portal.signOut")}
            </Button>
          </div>
          <PortalDocuments view={state.view} t={t} lang={lang} />
          <PortalStatementCard t={t} lang={lang} />
        </>
      )}
    </main>
  );
}
