/**
 * What the watcher benches share: funded accounts and batches of payments on a local ledger
 * that closes only when told (so a bench knows each ledger's close time), and sent invoices.
 */
import { Keypair } from "@stellar/stellar-sdk";
import { type client, invoiceBody } from "../tests/helpers/api";
import { Asset, Memo, pay, type startChain } from "../tests/helpers/stellar";

type Chain = Awaited<ReturnType<typeof startChain>>;
export type SentInvoice = { id: string; invoiceNumber: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Friendbot on a manually closed ledger: the request waits for the close. */
export async function fundedManual(chain: Chain): Promise<Keypair> {
  const kp = Keypair.random();
  let done = false;
  const p = chain.server
    .friendbot(kp.publicKey())
    .call()
    .finally(() => {
      done = true;
    });
  // Close ledgers until friendbot's transaction has been queued and included.
  while (!done) {
    await sleep(20);
    await chain.ledger.close();
  }
  await p;
  return kp;
}

/** `n` invoices of 1 XLM, created and sent through the API. */
export async function sentInvoices(api: ReturnType<typeof client>, n: number) {
  const invoices: SentInvoice[] = [];
  for (let i = 0; i < n; i++) {
    const inv = (
      await api.post(
        "/api/invoices",
        invoiceBody({ lineItems: [{ description: "x", quantity: "1", rate: "1" }] }),
      )
    ).body as SentInvoice;
    await api.post(`/api/invoices/${inv.id}/send`);
    invoices.push(inv);
  }
  return invoices;
}

/**
 * Pays each invoice of `group` (payer i pays invoice i), waits `waitMs` with the payments
 * queued, closes one ledger holding them all and returns when it closed.
 */
export async function payInOneLedger(
  chain: Chain,
  payers: Keypair[],
  wallet: string,
  group: SentInvoice[],
  waitMs: number,
): Promise<number> {
  const txs = await Promise.all(
    group.map((inv, i) =>
      pay(chain, payers[i], wallet, Asset.native(), "1", Memo.text(inv.invoiceNumber)),
    ),
  );
  const submits = txs.map((tx) => chain.server.submitTransaction(tx).catch(() => null));
  await sleep(waitMs);
  const closedAt = Date.now();
  await chain.ledger.close();
  await Promise.all(submits);
  return closedAt;
}
