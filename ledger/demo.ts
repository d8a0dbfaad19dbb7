/**
 * The "done when" script: only @stellar/stellar-sdk and a Horizon URL. It funds two accounts
 * with friendbot, opens a USDC trustline, pays XLM, path-pays XLM -> USDC, and reads the
 * payments back with their memos. Nothing in it is specific to the local ledger, except that
 * the USDC issuer is looked up at /local/issuers when USDC_ISSUER is not given.
 *
 *   npx tsx ledger/demo.ts http://127.0.0.1:8001
 */
import {
  Asset,
  Horizon,
  Keypair,
  Memo,
  Operation,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";

export interface DemoResult {
  merchant: string;
  /** [type, amount, asset, memo] of each payment received by the merchant */
  received: Array<[string, string, string, string | undefined]>;
}

export async function runDemo(
  horizonUrl: string,
  usdcIssuer: string,
  log: (line: string) => void = () => {},
): Promise<DemoResult> {
  const server = new Horizon.Server(horizonUrl, { allowHttp: horizonUrl.startsWith("http:") });
  const { network_passphrase: passphrase } = await server.root();
  const usdc = new Asset("USDC", usdcIssuer);
  const customer = Keypair.random();
  const merchant = Keypair.random();
  for (const kp of [customer, merchant]) {
    await server.friendbot(kp.publicKey()).call();
    log(`funded ${kp.publicKey()}`);
  }

  const send = async (signer: Keypair, ops: xdr.Operation[], memo?: string) => {
    const account = await server.loadAccount(signer.publicKey());
    const builder = new TransactionBuilder(account, {
      fee: String(await server.fetchBaseFee()),
      networkPassphrase: passphrase,
    });
    for (const op of ops) builder.addOperation(op);
    if (memo) builder.addMemo(Memo.text(memo));
    const tx = builder.setTimeout(60).build();
    tx.sign(signer);
    const res = await server.submitTransaction(tx);
    log(`${memo ?? "tx"}: ${res.hash} in ledger ${res.ledger}`);
    return res;
  };

  await send(merchant, [Operation.changeTrust({ asset: usdc })], "trust USDC");
  await send(
    customer,
    [
      Operation.payment({
        destination: merchant.publicKey(),
        asset: Asset.native(),
        amount: "25",
      }),
    ],
    "INV-1001",
  );
  await send(
    customer,
    [
      Operation.pathPaymentStrictReceive({
        sendAsset: Asset.native(),
        sendMax: "100",
        destination: merchant.publicKey(),
        destAsset: usdc,
        destAmount: "5",
        path: [],
      }),
    ],
    "INV-1002",
  );

  const page = await server
    .payments()
    .forAccount(merchant.publicKey())
    .join("transactions")
    .limit(20)
    .call();
  const received: DemoResult["received"] = [];
  for (const r of page.records) {
    if (r.type === "create_account") continue;
    const tx = await r.transaction();
    const rec = r as unknown as { amount: string; asset_code?: string };
    received.push([r.type, rec.amount, rec.asset_code ?? "XLM", tx.memo]);
    log(`received ${rec.amount} ${rec.asset_code ?? "XLM"} (${r.type}) memo=${tx.memo}`);
  }
  return { merchant: merchant.publicKey(), received };
}

const invokedDirectly = process.argv[1]?.endsWith("demo.ts");
if (invokedDirectly) {
  const url = process.argv[2] ?? process.env.HORIZON_TESTNET_URL ?? "http://127.0.0.1:8001";
  let issuer = process.env.USDC_ISSUER;
  if (!issuer) {
    const res = await fetch(`${url}/local/issuers`);
    issuer = ((await res.json()) as { USDC: { issuer: string } }).USDC.issuer;
  }
  await runDemo(url, issuer, console.log);
}
