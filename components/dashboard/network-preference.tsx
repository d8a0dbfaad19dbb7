"use client";

import { useCallback, useEffect, useState } from "react";
import { NETWORK_LABELS, NETWORK_NAMES, type NetworkName } from "@/lib/format";

const KEY = "stellar-invoicing.network";

function stored(): NetworkName {
  try {
    const value = localStorage.getItem(KEY);
    return value === "mainnet" ? "mainnet" : "testnet";
  } catch {
    return "testnet";
  }
}

/** The network the freelancer last chose (dashboard switch), kept in localStorage. */
export function usePreferredNetwork(): [NetworkName, (n: NetworkName) => void, boolean] {
  const [network, setNetwork] = useState<NetworkName>("testnet");
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setNetwork(stored());
    setReady(true);
  }, []);
  const choose = useCallback((n: NetworkName) => {
    setNetwork(n);
    try {
      localStorage.setItem(KEY, n);
    } catch {
      // private mode: the choice lasts for this page only
    }
  }, []);
  return [network, choose, ready];
}

/** Testnet / Mainnet as a radio group (arrow keys move between the two). */
export function NetworkSwitch({
  value,
  onChange,
}: {
  value: NetworkName;
  onChange: (n: NetworkName) => void;
}) {
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">Network</legend>
      <span aria-hidden="true" className="text-sm text-slate-600 dark:text-slate-300">
        Network
      </span>
      <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 dark:border-slate-600 dark:bg-slate-800">
        {NETWORK_NAMES.map((n) => (
          <label
            key={n}
            className={`cursor-pointer rounded px-3 py-1.5 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${value === n ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700"}`}
          >
            <input
              type="radio"
              name="network-switch"
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
            />
            {NETWORK_LABELS[n]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
