/**
 * Soroban on the local ledger: the Stellar Asset Contracts (SACs) of XLM and of the ledger's own
 * credit assets (USDC, EURC), invoked through `invokeHostFunction` operations, and the "local
 * smart wallets" that pay through them. No WebAssembly runs here: the SAC functions the service
 * uses (`transfer`, `mint`, `balance`, plus `decimals`/`name`/`symbol`) are implemented directly,
 * with the host's authorization rules:
 *
 * - every `require_auth` address (transfer's `from`, the issuer for `mint`) needs a
 *   SorobanAuthorizationEntry whose root invocation is exactly this call: source-account
 *   credentials when the address is the operation's source account, otherwise address
 *   credentials signed over the HashIdPreimage `envelopeTypeSorobanAuthorization` (network id,
 *   nonce, signatureExpirationLedger, invocation), not expired, with a nonce never used before;
 * - a G address's signature is the SDK's standard shape (`authorizeEntry`): a vec of maps
 *   `{ public_key: bytes, signature: bytes }`, by the account's master key;
 * - a local smart wallet (a C address the ledger created for one ed25519 signer, see
 *   `walletContractId`) is authorized by the same shape signed by its signer key: this is the
 *   local stand-in for a wallet contract's `__check_auth` (ledger/README.md, "Local smart
 *   wallets").
 *
 * Balances: G addresses use their classic balance or trustline (which must exist, exactly the
 * classic rules), C addresses a SAC balance entry per contract and asset (contract data
 * `Balance(address)`). A muxed destination (ScAddress muxedAccount, Protocol 23) credits its
 * base G account and the event's data carries `to_muxed_id` (CAP-67).
 *
 * The same code runs for `simulateTransaction` (mode "record": the auth entries, footprint and
 * resources the call needs) and when a ledger closes (mode "enforce": the declared footprint and
 * resources are checked, failures are INVOKE_HOST_FUNCTION_* result codes).
 */
import { createHash, randomBytes } from "node:crypto";
import { Address, Asset, Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { formatStroops, INT64_MAX, toStroops } from "./amount";
import { baseAccount, muxedId } from "./envelope";
import { assetFields } from "./records";
import {
  type AccountEntry,
  type ContractBalance,
  contractBalanceKey,
  type IssuerInfo,
  type LedgerState,
  trustlineKey,
} from "./state";
import { availableNative } from "./validate";

// --- network limits and fee schedule (stellar-core's Soroban settings, rounded) ---------------

export const LIMITS = {
  txMaxInstructions: 100_000_000,
  txMaxDiskReadBytes: 200_000,
  txMaxWriteBytes: 132_096,
  txMaxFootprintEntries: 100,
  /** the longest a signature may stay valid, in ledgers (max entry TTL) */
  maxSignatureLedgers: 3_110_400,
};

const FEES = {
  per10kInstructions: 25n,
  perReadEntry: 6_250n,
  perWriteEntry: 10_000n,
  perKbDiskRead: 1_786n,
  perKbWrite: 11_800n,
  perKbTxSize: 1_624n,
  perKbHistory: 16_235n,
  perKbEvents: 10_000n,
  /** rent of a new persistent entry (a contract balance) */
  newPersistentEntryRent: 45_000n,
  /** rent of a new temporary entry (a nonce) */
  newTemporaryEntryRent: 1_500n,
};

const perKb = (bytes: number, fee: bigint) => (BigInt(bytes) * fee + 1023n) / 1024n;

/** Non-refundable resource fee of declared resources for an envelope of `txSize` bytes. */
export function nonRefundableFee(r: xdr.SorobanResources, txSize: number): bigint {
  const fp = r.footprint();
  const entries = BigInt(fp.readOnly().length + fp.readWrite().length);
  return (
    (BigInt(r.instructions()) * FEES.per10kInstructions + 9_999n) / 10_000n +
    entries * FEES.perReadEntry +
    BigInt(fp.readWrite().length) * FEES.perWriteEntry +
    perKb(r.diskReadBytes(), FEES.perKbDiskRead) +
    perKb(r.writeBytes(), FEES.perKbWrite) +
    perKb(txSize, FEES.perKbTxSize) +
    perKb(txSize + 300, FEES.perKbHistory)
  );
}

/** `txSOROBAN_INVALID` checks on the declared SorobanTransactionData; a reason or undefined. */
export function sorobanDataInvalid(
  data: xdr.SorobanTransactionData,
  fullFee: bigint,
  txSize: number,
): string | undefined {
  const r = data.resources();
  const fp = r.footprint();
  const resourceFee = BigInt(data.resourceFee().toString());
  if (resourceFee < 0n || resourceFee > fullFee) return "resource fee above the transaction fee";
  if (r.instructions() > LIMITS.txMaxInstructions) return "instructions above the network limit";
  if (r.diskReadBytes() > LIMITS.txMaxDiskReadBytes) return "read bytes above the network limit";
  if (r.writeBytes() > LIMITS.txMaxWriteBytes) return "write bytes above the network limit";
  if (fp.readOnly().length + fp.readWrite().length > LIMITS.txMaxFootprintEntries) {
    return "footprint above the network limit";
  }
  if (resourceFee < nonRefundableFee(r, txSize)) return "resource fee below the non-refundable fee";
  return undefined;
}

// --- host errors -------------------------------------------------------------------------------

/** A failed invocation: the host error, as Stellar RPC's simulation prints it. */
export class HostError extends Error {
  constructor(
    readonly error: string,
    readonly detail: string,
    readonly contractId?: string,
    /** the result code of a real transaction failing this way */
    readonly code = "op_trapped",
  ) {
    super(`HostError: ${error}`);
  }

  /** The simulation's `error` text (host error and its diagnostic event). */
  describe(): string {
    const where = this.contractId
      ? `contract:${Buffer.from(StrKey.decodeContract(this.contractId)).toString("hex")}, `
      : "";
    return `HostError: ${this.error}\n\nEvent log (newest first):\n   0: [Diagnostic Event] ${where}topics:[error, ${this.error}], data:${JSON.stringify(this.detail)}\n`;
  }
}

// SAC contract errors (soroban-env-host ContractError)
const E = {
  operationNotSupported: "Error(Contract, #2)",
  negativeAmount: "Error(Contract, #8)",
  balance: "Error(Contract, #10)",
  accountMissing: "Error(Contract, #6)",
  overflow: "Error(Contract, #12)",
  trustlineMissing: "Error(Contract, #13)",
  authInvalidAction: "Error(Auth, InvalidAction)",
  authExistingValue: "Error(Auth, ExistingValue)",
  authInvalidInput: "Error(Auth, InvalidInput)",
  cryptoInvalidInput: "Error(Crypto, InvalidInput)",
  valueUnexpectedType: "Error(Value, UnexpectedType)",
  storageMissingValue: "Error(Storage, MissingValue)",
  storageExceededLimit: "Error(Storage, ExceededLimit)",
  budgetExceeded: "Error(Budget, ExceededLimit)",
};

// --- contract ids --------------------------------------------------------------------------------

/** SEP-11 canonical string of an asset. */
export function sep11(asset: Asset): string {
  return asset.isNative() ? "native" : `${asset.getCode()}:${asset.getIssuer()}`;
}

/** The deployed SACs of a ledger: XLM's and those of its issuers' assets, by contract id. */
export function sacContracts(
  passphrase: string,
  issuers: Record<string, IssuerInfo>,
): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const native = Asset.native();
  out.set(native.contractId(passphrase), native);
  for (const info of Object.values(issuers)) {
    const asset = new Asset(info.code, info.issuer);
    out.set(asset.contractId(passphrase), asset);
  }
  return out;
}

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest();

/**
 * The contract id of the local smart wallet of `signer` on this network: the id a deployment
 * from the network's root account with salt SHA-256("local-smart-wallet:" + signer) would get
 * (HashIdPreimage envelopeTypeContractId), so it is a real, deterministic C address.
 */
export function walletContractId(signer: string, passphrase: string): string {
  const root = Keypair.master(passphrase).publicKey();
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId: sha256(passphrase),
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
        new xdr.ContractIdPreimageFromAddress({
          address: new Address(root).toScAddress(),
          salt: sha256(`local-smart-wallet:${signer}`),
        }),
      ),
    }),
  );
  return StrKey.encodeContract(sha256(preimage.toXDR()));
}

// --- ledger keys -------------------------------------------------------------------------------

const keyOf = (k: xdr.LedgerKey) => k.toXDR("base64");

function contractDataKey(
  contract: string,
  key: xdr.ScVal,
  durability: xdr.ContractDataDurability,
): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contract).toScAddress(),
      key,
      durability,
    }),
  );
}

const instanceKey = (contract: string) =>
  contractDataKey(
    contract,
    xdr.ScVal.scvLedgerKeyContractInstance(),
    xdr.ContractDataDurability.persistent(),
  );

const balanceKey = (sac: string, holder: string) =>
  contractDataKey(
    sac,
    xdr.ScVal.scvVec([xdr.ScVal.scvSymbol("Balance"), new Address(holder).toScVal()]),
    xdr.ContractDataDurability.persistent(),
  );

const nonceKey = (address: string, nonce: xdr.Int64) =>
  contractDataKey(
    address,
    xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce })),
    xdr.ContractDataDurability.temporary(),
  );

const accountKey = (g: string) =>
  xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(g).xdrAccountId() }),
  );

const trustlineLedgerKey = (g: string, asset: Asset) =>
  xdr.LedgerKey.trustline(
    new xdr.LedgerKeyTrustLine({
      accountId: Keypair.fromPublicKey(g).xdrAccountId(),
      asset: asset.toTrustLineXDRObject(),
    }),
  );

// --- state overlay -------------------------------------------------------------------------------

/** Accounts as apply.ts's AccountView offers them. */
export interface AccountAccess {
  get(id: string): AccountEntry | undefined;
  save(a: AccountEntry): void;
}

/**
 * Copy-on-write overlay over the contract balances and nonces: committed only when the
 * transaction succeeds (a failed invocation consumes no nonce).
 */
export class ContractView {
  private balances = new Map<string, ContractBalance>();
  private newNonces = new Set<string>();

  constructor(private readonly state: LedgerState) {}

  balance(holder: string, asset: string): ContractBalance | undefined {
    const key = contractBalanceKey(holder, asset);
    const local = this.balances.get(key);
    if (local) return local;
    const found = this.state.contractBalances.get(key);
    return found ? { ...found } : undefined;
  }

  putBalance(b: ContractBalance): void {
    this.balances.set(contractBalanceKey(b.holder, b.asset), b);
  }

  nonceUsed(id: string): boolean {
    return this.newNonces.has(id) || this.state.nonces.has(id);
  }

  consumeNonce(id: string): void {
    this.newNonces.add(id);
  }

  walletSigner(contractId: string): string | undefined {
    return this.state.wallets.get(contractId);
  }

  commit(): void {
    for (const [k, b] of this.balances) this.state.contractBalances.set(k, b);
    for (const n of this.newNonces) this.state.nonces.add(n);
  }
}

// --- invocation ----------------------------------------------------------------------------------

export interface BalanceChange {
  type: "transfer" | "mint" | "burn";
  asset: Asset;
  /** G or C; absent for mint */
  from?: string;
  /** G or C (base account of a muxed destination); absent for burn */
  to?: string;
  amount: bigint;
  /** the destination's muxed id (decimal) */
  toMuxedId?: string;
}

export interface InvokeEnv {
  passphrase: string;
  ledgerSeq: number;
  baseReserve: bigint;
  sacs: Map<string, Asset>;
  accounts: AccountAccess;
  contracts: ContractView;
}

export interface InvokeRequest {
  hostFunction: xdr.HostFunction;
  auth: xdr.SorobanAuthorizationEntry[];
  /** G address of the operation's source (source-account credentials) */
  source: string;
  /** "record": simulation records the auth it needs; "enforce": the entries must authorize */
  mode: "record" | "enforce";
}

export interface InvokeOutcome {
  returnValue: xdr.ScVal;
  changes: BalanceChange[];
  events: xdr.ContractEvent[];
  /** auth entries: recorded (simulation) or as given */
  auth: xdr.SorobanAuthorizationEntry[];
  readOnly: xdr.LedgerKey[];
  readWrite: xdr.LedgerKey[];
  /** resources the call consumes */
  instructions: number;
  diskReadBytes: number;
  writeBytes: number;
  /** refundable fee: events and return value, rent of new entries */
  refundableFee: bigint;
  contractId: string;
  functionName: string;
  args: xdr.ScVal[];
}

function i128(v: bigint): xdr.ScVal {
  return xdr.ScVal.scvI128(
    new xdr.Int128Parts({
      hi: xdr.Int64.fromString((v >> 64n).toString()),
      lo: xdr.Uint64.fromString((v & ((1n << 64n) - 1n)).toString()),
    }),
  );
}

function i128Of(v: xdr.ScVal, contractId: string): bigint {
  if (v.switch().name !== "scvI128") {
    throw new HostError(E.valueUnexpectedType, "expected an i128 amount", contractId);
  }
  const parts = v.i128();
  return (BigInt(parts.hi().toString()) << 64n) | BigInt(parts.lo().toString());
}

/** A decoded address argument: G, C, or M (muxed, only where MuxedAddress is accepted). */
function addressOf(v: xdr.ScVal, contractId: string, allowMuxed: boolean): string {
  if (v.switch().name !== "scvAddress") {
    throw new HostError(E.valueUnexpectedType, "expected an address", contractId);
  }
  const kind = v.address().switch().name;
  if (kind === "scAddressTypeMuxedAccount" && !allowMuxed) {
    throw new HostError(E.valueUnexpectedType, "a muxed address is not an Address", contractId);
  }
  if (
    kind !== "scAddressTypeAccount" &&
    kind !== "scAddressTypeContract" &&
    kind !== "scAddressTypeMuxedAccount"
  ) {
    throw new HostError(E.valueUnexpectedType, "unsupported address type", contractId);
  }
  return Address.fromScVal(v).toString();
}

const sym = (s: string) => xdr.ScVal.scvSymbol(s);

/** The CAP-67 event of a balance change, as the asset's SAC emits it. */
export function changeEvent(c: BalanceChange, contractId: string): xdr.ContractEvent {
  const asset = xdr.ScVal.scvString(sep11(c.asset));
  const amount = c.toMuxedId
    ? xdr.ScVal.scvMap([
        new xdr.ScMapEntry({ key: sym("amount"), val: i128(c.amount) }),
        new xdr.ScMapEntry({
          key: sym("to_muxed_id"),
          val: xdr.ScVal.scvU64(xdr.Uint64.fromString(c.toMuxedId)),
        }),
      ])
    : i128(c.amount);
  const topics =
    c.type === "transfer"
      ? [sym("transfer"), addrVal(c.from), addrVal(c.to), asset]
      : c.type === "mint"
        ? [sym("mint"), addrVal(c.to), asset]
        : [sym("burn"), addrVal(c.from), asset];
  return new xdr.ContractEvent({
    ext: new xdr.ExtensionPoint(0),
    contractId: StrKey.decodeContract(contractId) as unknown as xdr.ContractId,
    type: xdr.ContractEventType.contract(),
    body: new xdr.ContractEventBody(0, new xdr.ContractEventV0({ topics, data: amount })),
  });
}

function addrVal(a: string | undefined): xdr.ScVal {
  if (!a) throw new Error("event address missing");
  return new Address(a).toScVal();
}

/** Horizon's `asset_balance_changes` entry of a change (Horizon 23's field order). */
export function horizonBalanceChange(c: BalanceChange): Record<string, string> {
  return {
    ...assetFields(c.asset),
    type: c.type,
    ...(c.from ? { from: c.from } : {}),
    ...(c.to ? { to: c.to } : {}),
    amount: formatStroops(c.amount),
    ...(c.toMuxedId ? { destination_muxed_id: c.toMuxedId } : {}),
  };
}

const INSTRUCTIONS = { base: 900_000, perAddressAuth: 650_000, perBalance: 120_000 };
const ACCOUNT_ENTRY_BYTES = 140;
const TRUSTLINE_ENTRY_BYTES = 120;
const CONTRACT_BALANCE_BYTES = 180;

/**
 * Executes one host function against the state (through the views), or throws a HostError: any
 * other failure while reading the call (a malformed value the SDK decoded) is a host error too,
 * never an exception that would stop the ledger from closing.
 */
export function invoke(env: InvokeEnv, req: InvokeRequest): InvokeOutcome {
  try {
    return run(env, req);
  } catch (err) {
    if (err instanceof HostError) throw err;
    throw new HostError(E.valueUnexpectedType, err instanceof Error ? err.message : String(err));
  }
}

function run(env: InvokeEnv, req: InvokeRequest): InvokeOutcome {
  const fn = req.hostFunction;
  if (fn.switch().name !== "hostFunctionTypeInvokeContract") {
    throw new HostError(E.operationNotSupported, "only contract invocations run on this ledger");
  }
  const call = fn.invokeContract();
  const contractAddress = call.contractAddress();
  if (contractAddress.switch().name !== "scAddressTypeContract") {
    throw new HostError(E.valueUnexpectedType, "the invoked address is not a contract");
  }
  const contractId = Address.fromScAddress(contractAddress).toString();
  const functionName = call.functionName().toString();
  const args = call.args();
  const asset = env.sacs.get(contractId);
  if (!asset) {
    throw new HostError(
      E.storageMissingValue,
      env.contracts.walletSigner(contractId)
        ? "local smart wallets export no callable functions"
        : "contract instance not found",
      contractId,
    );
  }

  const readOnly = new Map<string, xdr.LedgerKey>();
  const readWrite = new Map<string, xdr.LedgerKey>();
  const ro = (k: xdr.LedgerKey) => {
    const id = keyOf(k);
    if (!readWrite.has(id)) readOnly.set(id, k);
  };
  const rw = (k: xdr.LedgerKey) => {
    const id = keyOf(k);
    readOnly.delete(id);
    readWrite.set(id, k);
  };
  ro(instanceKey(contractId));

  let instructions = INSTRUCTIONS.base;
  let diskReadBytes = 0;
  let writeBytes = 0;
  let rent = 0n;
  const changes: BalanceChange[] = [];
  const recorded: xdr.SorobanAuthorizationEntry[] = [];
  const usedEntries = new Set<number>();
  const assetStr = sep11(asset);
  const issuer = asset.isNative() ? undefined : asset.getIssuer();
  const fail = (error: string, detail: string) => new HostError(error, detail, contractId);

  const arity = (n: number) => {
    if (args.length !== n) {
      throw fail(E.valueUnexpectedType, `${functionName} takes ${n} arguments`);
    }
  };

  const invocation = new xdr.SorobanAuthorizedInvocation({
    function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
      new xdr.InvokeContractArgs({ contractAddress, functionName, args }),
    ),
    subInvocations: [],
  });
  const invocationXdr = invocation.toXDR("base64");

  /** require_auth(address) for this root invocation. */
  const requireAuth = (address: string) => {
    if (req.mode === "record") {
      if (address === req.source) {
        recorded.push(
          new xdr.SorobanAuthorizationEntry({
            credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
            rootInvocation: invocation,
          }),
        );
        return;
      }
      const nonce = xdr.Int64.fromString(
        BigInt.asIntN(64, randomBytes(8).readBigUInt64BE()).toString(),
      );
      recorded.push(
        new xdr.SorobanAuthorizationEntry({
          credentials: xdr.SorobanCredentials.sorobanCredentialsAddress(
            new xdr.SorobanAddressCredentials({
              address: new Address(address).toScAddress(),
              nonce,
              signatureExpirationLedger: 0,
              signature: xdr.ScVal.scvVoid(),
            }),
          ),
          rootInvocation: invocation,
        }),
      );
      addressAuthFootprint(address, nonce);
      return;
    }
    // enforce: the first unused entry for this address whose root invocation is this call
    for (let i = 0; i < req.auth.length; i++) {
      if (usedEntries.has(i)) continue;
      const entry = req.auth[i];
      const creds = entry.credentials();
      const isSource = creds.switch().name === "sorobanCredentialsSourceAccount";
      const entryAddress = isSource
        ? req.source
        : Address.fromScAddress(creds.address().address()).toString();
      if (entryAddress !== address) continue;
      if (entry.rootInvocation().toXDR("base64") !== invocationXdr) continue;
      usedEntries.add(i);
      if (!isSource) checkAddressCredentials(address, creds.address(), entry.rootInvocation());
      return;
    }
    throw fail(E.authInvalidAction, `Unauthorized function call for address ${address}`);
  };

  const addressAuthFootprint = (address: string, nonce: xdr.Int64) => {
    instructions += INSTRUCTIONS.perAddressAuth;
    rw(nonceKey(address, nonce));
    rent += FEES.newTemporaryEntryRent;
    if (address.startsWith("G")) {
      ro(accountKey(address));
      diskReadBytes += ACCOUNT_ENTRY_BYTES;
    } else {
      ro(instanceKey(address));
    }
  };

  const checkAddressCredentials = (
    address: string,
    creds: xdr.SorobanAddressCredentials,
    root: xdr.SorobanAuthorizedInvocation,
  ) => {
    const nonce = creds.nonce();
    addressAuthFootprint(address, nonce);
    const expiration = creds.signatureExpirationLedger();
    if (expiration < env.ledgerSeq) {
      throw fail(E.authInvalidInput, "signature has expired");
    }
    if (expiration >= env.ledgerSeq + LIMITS.maxSignatureLedgers) {
      throw fail(E.authInvalidInput, "signature expiration is too late");
    }
    const nonceId = `${address}:${nonce.toString()}`;
    if (env.contracts.nonceUsed(nonceId)) {
      throw fail(E.authExistingValue, "nonce already exists for address");
    }
    const payload = sha256(
      xdr.HashIdPreimage.envelopeTypeSorobanAuthorization(
        new xdr.HashIdPreimageSorobanAuthorization({
          networkId: sha256(env.passphrase),
          nonce,
          signatureExpirationLedger: expiration,
          invocation: root,
        }),
      ).toXDR(),
    );
    const signers = signatureList(creds.signature(), contractId);
    let allowed: string[];
    if (address.startsWith("G")) {
      // an account's built-in check: its signers (here the master key, weight 1)
      if (!env.accounts.get(address)) throw fail(E.storageMissingValue, "account not found");
      allowed = [address];
    } else {
      // local smart wallet: the stand-in for the wallet contract's __check_auth
      const signer = env.contracts.walletSigner(address);
      if (!signer) throw fail(E.storageMissingValue, `no contract instance for ${address}`);
      allowed = [signer];
    }
    let weight = 0;
    let previous = "";
    for (const s of signers) {
      // the account check wants signatures sorted by public key, without duplicates
      const raw = Buffer.from(StrKey.decodeEd25519PublicKey(s.publicKey)).toString("hex");
      if (raw <= previous) throw fail(E.authInvalidInput, "signatures out of order or repeated");
      previous = raw;
      if (!allowed.includes(s.publicKey)) {
        throw fail(E.authInvalidAction, `signer ${s.publicKey} is not a signer of ${address}`);
      }
      if (!Keypair.fromPublicKey(s.publicKey).verify(payload, s.signature)) {
        throw fail(E.cryptoInvalidInput, "failed ED25519 verification");
      }
      weight += 1;
    }
    if (weight < 1) throw fail(E.authInvalidAction, "signature weight is lower than threshold");
    env.contracts.consumeNonce(nonceId);
  };

  /** The holder's SAC balance: G from the classic entries, C from its contract data. */
  const readBalance = (holder: string, write: boolean): bigint => {
    if (holder.startsWith("C")) {
      (write ? rw : ro)(balanceKey(contractId, holder));
      return env.contracts.balance(holder, assetStr)?.amount ?? 0n;
    }
    if (!issuer) {
      (write ? rw : ro)(accountKey(holder));
      diskReadBytes += ACCOUNT_ENTRY_BYTES;
      const account = env.accounts.get(holder);
      if (!account) throw fail(E.accountMissing, `account ${holder} does not exist`);
      return availableNative(account, env.baseReserve);
    }
    if (holder === issuer) return INT64_MAX;
    (write ? rw : ro)(trustlineLedgerKey(holder, asset));
    diskReadBytes += TRUSTLINE_ENTRY_BYTES;
    const account = env.accounts.get(holder);
    const line = account?.trustlines[trustlineKey(asset.getCode(), asset.getIssuer())];
    if (!line) throw fail(E.trustlineMissing, `trustline entry is missing for account ${holder}`);
    return line.balance;
  };

  const addBalance = (holder: string, delta: bigint) => {
    instructions += INSTRUCTIONS.perBalance;
    if (holder.startsWith("C")) {
      rw(balanceKey(contractId, holder));
      writeBytes += CONTRACT_BALANCE_BYTES;
      const existing = env.contracts.balance(holder, assetStr);
      const amount = (existing?.amount ?? 0n) + delta;
      if (amount < 0n) throw fail(E.balance, "balance is not sufficient to spend");
      if (amount > INT64_MAX) throw fail(E.overflow, "balance overflows");
      if (!existing) rent += FEES.newPersistentEntryRent;
      env.contracts.putBalance({
        holder,
        asset: assetStr,
        amount,
        lastModifiedLedger: env.ledgerSeq,
      });
      return;
    }
    if (issuer && holder === issuer) return; // the issuer mints and burns its own asset
    const current = readBalance(holder, true);
    const account = env.accounts.get(holder) as AccountEntry;
    if (!issuer) {
      writeBytes += ACCOUNT_ENTRY_BYTES;
      if (delta < 0n && current < -delta) {
        throw fail(E.balance, "resulting balance is not within the allowed range");
      }
      if (account.balance + delta > INT64_MAX) throw fail(E.balance, "balance overflows");
      account.balance += delta;
    } else {
      writeBytes += TRUSTLINE_ENTRY_BYTES;
      const line = account.trustlines[trustlineKey(asset.getCode(), asset.getIssuer())];
      if (line.balance + delta < 0n) {
        throw fail(E.balance, "resulting balance is not within the allowed range");
      }
      if (line.balance + delta > line.limit) {
        throw fail(E.balance, "resulting balance is not within the allowed range");
      }
      line.balance += delta;
      line.lastModifiedLedger = env.ledgerSeq;
    }
    env.accounts.save(account);
  };

  let returnValue = xdr.ScVal.scvVoid();
  switch (functionName) {
    case "transfer": {
      arity(3);
      const from = addressOf(args[0], contractId, false);
      const toRaw = addressOf(args[1], contractId, true);
      const amount = i128Of(args[2], contractId);
      if (amount < 0n) throw fail(E.negativeAmount, "negative amount is not allowed");
      const to = toRaw.startsWith("M") ? baseAccount(toRaw) : toRaw;
      requireAuth(from);
      addBalance(from, -amount);
      addBalance(to, amount);
      const type =
        issuer && from === issuer ? "mint" : issuer && to === issuer ? "burn" : "transfer";
      changes.push({
        type,
        asset,
        ...(type !== "mint" ? { from } : {}),
        ...(type !== "burn" ? { to } : {}),
        amount,
        ...(toRaw.startsWith("M") && type !== "burn" ? { toMuxedId: muxedId(toRaw) } : {}),
      });
      break;
    }
    case "mint": {
      arity(2);
      const to = addressOf(args[0], contractId, false);
      const amount = i128Of(args[1], contractId);
      if (amount < 0n) throw fail(E.negativeAmount, "negative amount is not allowed");
      if (!issuer) throw fail(E.operationNotSupported, "the native asset has no admin");
      requireAuth(issuer);
      addBalance(to, amount);
      if (to !== issuer) changes.push({ type: "mint", asset, to, amount });
      break;
    }
    case "balance": {
      arity(1);
      const id = addressOf(args[0], contractId, false);
      const value = id.startsWith("C")
        ? readBalance(id, false)
        : !issuer || id !== issuer
          ? readBalanceOrZero(() => readBalance(id, false))
          : INT64_MAX;
      returnValue = i128(value);
      break;
    }
    case "decimals":
      arity(0);
      returnValue = xdr.ScVal.scvU32(7);
      break;
    case "name":
      arity(0);
      returnValue = xdr.ScVal.scvString(assetStr);
      break;
    case "symbol":
      arity(0);
      returnValue = xdr.ScVal.scvString(asset.isNative() ? "native" : asset.getCode());
      break;
    default:
      throw fail(E.valueUnexpectedType, `non-existent contract function ${functionName}`);
  }

  const events = changes.map((c) => changeEvent(c, contractId));
  const eventBytes = events.reduce((n, e) => n + e.toXDR().length, 0) + returnValue.toXDR().length;
  return {
    returnValue,
    changes,
    events,
    auth: req.mode === "record" ? recorded : req.auth,
    readOnly: [...readOnly.values()],
    readWrite: [...readWrite.values()],
    instructions,
    diskReadBytes,
    writeBytes,
    refundableFee: perKb(eventBytes, FEES.perKbEvents) + rent,
    contractId,
    functionName,
    args,
  };
}

function readBalanceOrZero(read: () => bigint): bigint {
  try {
    return read();
  } catch (err) {
    if (err instanceof HostError && err.error === E.trustlineMissing) return 0n;
    throw err;
  }
}

/** The `{ public_key, signature }` maps of an address credential's signature. */
function signatureList(
  sig: xdr.ScVal,
  contractId: string,
): Array<{ publicKey: string; signature: Buffer }> {
  const bad = () => new HostError(E.authInvalidInput, "invalid signature format", contractId);
  if (sig.switch().name !== "scvVec") throw bad();
  const out: Array<{ publicKey: string; signature: Buffer }> = [];
  for (const item of sig.vec() ?? []) {
    if (item.switch().name !== "scvMap") throw bad();
    let publicKey: Buffer | undefined;
    let signature: Buffer | undefined;
    for (const e of item.map() ?? []) {
      const k = e.key();
      if (k.switch().name !== "scvSymbol" || e.val().switch().name !== "scvBytes") throw bad();
      if (k.sym().toString() === "public_key") publicKey = e.val().bytes();
      else if (k.sym().toString() === "signature") signature = e.val().bytes();
      else throw bad();
    }
    if (publicKey?.length !== 32 || signature?.length !== 64) throw bad();
    out.push({ publicKey: StrKey.encodeEd25519PublicKey(publicKey), signature });
  }
  return out;
}

/**
 * Checks the declared footprint and resources against what the call used (enforce mode):
 * undeclared entries trap, resources above the declared ones exceed the limit, a resource fee
 * that cannot cover the refundable part is INSUFFICIENT_REFUNDABLE_FEE.
 */
export function checkDeclared(
  out: InvokeOutcome,
  data: xdr.SorobanTransactionData,
  txSize: number,
): HostError | undefined {
  const r = data.resources();
  const fp = r.footprint();
  const declaredRo = new Set(fp.readOnly().map(keyOf));
  const declaredRw = new Set(fp.readWrite().map(keyOf));
  for (const k of out.readWrite) {
    if (!declaredRw.has(keyOf(k))) {
      return new HostError(
        E.storageExceededLimit,
        "trying to access contract storage key outside of the correct footprint",
        out.contractId,
      );
    }
  }
  for (const k of out.readOnly) {
    const id = keyOf(k);
    if (!declaredRo.has(id) && !declaredRw.has(id)) {
      return new HostError(
        E.storageExceededLimit,
        "trying to access contract storage key outside of the footprint",
        out.contractId,
      );
    }
  }
  if (
    out.instructions > r.instructions() ||
    out.diskReadBytes > r.diskReadBytes() ||
    out.writeBytes > r.writeBytes()
  ) {
    return new HostError(
      E.budgetExceeded,
      "operation instructions or bytes exceed the declared resources",
      out.contractId,
      "op_resource_limit_exceeded",
    );
  }
  const resourceFee = BigInt(data.resourceFee().toString());
  if (resourceFee - nonRefundableFee(r, txSize) < out.refundableFee) {
    return new HostError(
      E.budgetExceeded,
      "refundable resource fee is not enough for events and rent",
      out.contractId,
      "op_insufficient_refundable_fee",
    );
  }
  return undefined;
}

/** The SorobanTransactionData a simulation recommends for `out` (resource fee included). */
export function recommendedData(
  out: InvokeOutcome,
  txSize: number,
): { data: xdr.SorobanTransactionData; minResourceFee: bigint } {
  const resources = new xdr.SorobanResources({
    footprint: new xdr.LedgerFootprint({ readOnly: out.readOnly, readWrite: out.readWrite }),
    instructions: out.instructions,
    diskReadBytes: out.diskReadBytes,
    writeBytes: out.writeBytes,
  });
  const minResourceFee = nonRefundableFee(resources, txSize) + out.refundableFee;
  const data = new xdr.SorobanTransactionData({
    ext: new xdr.SorobanTransactionDataExt(0),
    resources,
    resourceFee: xdr.Int64.fromString(minResourceFee.toString()),
  });
  return { data, minResourceFee };
}

/** SHA-256 of the InvokeHostFunctionSuccessPreImage (the success result's hash). */
export function successHash(out: InvokeOutcome): Buffer {
  return sha256(
    new xdr.InvokeHostFunctionSuccessPreImage({
      returnValue: out.returnValue,
      events: out.events,
    }).toXDR(),
  );
}

/** Horizon's `type` of each ScVal arm (the Go XDR union arm names). */
const SCVAL_ARMS: Record<string, string> = {
  scvBool: "B",
  scvVoid: "",
  scvError: "Error",
  scvU32: "U32",
  scvI32: "I32",
  scvU64: "U64",
  scvI64: "I64",
  scvTimepoint: "Timepoint",
  scvDuration: "Duration",
  scvU128: "U128",
  scvI128: "I128",
  scvU256: "U256",
  scvI256: "I256",
  scvBytes: "Bytes",
  scvString: "Str",
  scvSymbol: "Sym",
  scvVec: "Vec",
  scvMap: "Map",
  scvAddress: "Address",
  scvContractInstance: "Instance",
  scvLedgerKeyContractInstance: "",
  scvLedgerKeyNonce: "NonceKey",
};

/** Horizon's `function`, `parameters`, `address`, `salt` of an invoke_host_function operation. */
export function horizonInvokeFields(fn: xdr.HostFunction): Record<string, unknown> {
  const name = fn.switch().name; // hostFunctionTypeInvokeContract, ...
  const fields: Record<string, unknown> = {
    function: `HostFunctionType${name[0].toUpperCase()}${name.slice(1)}`,
  };
  if (name === "hostFunctionTypeInvokeContract") {
    const call = fn.invokeContract();
    const params = [
      xdr.ScVal.scvAddress(call.contractAddress()),
      xdr.ScVal.scvSymbol(call.functionName()),
      ...call.args(),
    ];
    fields.parameters = params.map((p) => ({
      value: p.toXDR("base64"),
      type: SCVAL_ARMS[p.switch().name] ?? "",
    }));
  } else {
    fields.parameters = [];
  }
  fields.address = "";
  fields.salt = "";
  return fields;
}

/** Balance changes back from Horizon's stored `asset_balance_changes` (for CAP-67 events). */
export function changesFromDetails(details: Record<string, unknown>): BalanceChange[] {
  const raw = details.asset_balance_changes;
  if (!Array.isArray(raw)) return [];
  return raw.map((r: Record<string, string>) => ({
    type: r.type as BalanceChange["type"],
    asset: r.asset_type === "native" ? Asset.native() : new Asset(r.asset_code, r.asset_issuer),
    from: r.from,
    to: r.to,
    amount: toStroops(r.amount),
    toMuxedId: r.destination_muxed_id,
  }));
}

// --- ledger entries (getLedgerEntries) -------------------------------------------------------------

const PERSISTENT_TTL = 2_073_600;
const TEMPORARY_TTL = 17_280;

export interface FoundEntry {
  data: xdr.LedgerEntryData;
  lastModifiedLedgerSeq: number;
  liveUntilLedgerSeq?: number;
}

const int64 = (v: bigint) => xdr.Int64.fromString(v.toString());

function accountEntryData(a: AccountEntry): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: Keypair.fromPublicKey(a.id).xdrAccountId(),
      balance: int64(a.balance),
      seqNum: int64(a.seqNum),
      numSubEntries: a.subentries,
      inflationDest: null,
      flags: 0,
      homeDomain: a.homeDomain ?? "",
      thresholds: Buffer.from([1, 0, 0, 0]),
      signers: [],
      ext: new xdr.AccountEntryExt(0),
    }),
  );
}

/** The stored ledger entry behind `key`, as Stellar RPC's getLedgerEntries serves it. */
export function findLedgerEntry(
  key: xdr.LedgerKey,
  state: LedgerState,
  sacs: Map<string, Asset>,
  latest: number,
): FoundEntry | undefined {
  switch (key.switch().name) {
    case "account": {
      const id = StrKey.encodeEd25519PublicKey(key.account().accountId().ed25519());
      const a = state.getAccount(id);
      return a
        ? { data: accountEntryData(a), lastModifiedLedgerSeq: a.lastModifiedLedger }
        : undefined;
    }
    case "trustline": {
      const k = key.trustLine();
      const id = StrKey.encodeEd25519PublicKey(k.accountId().ed25519());
      const assetXdr = k.asset();
      if (assetXdr.switch().name === "assetTypePoolShare") return undefined;
      const asset = Asset.fromOperation(assetXdr as unknown as xdr.Asset);
      const line =
        state.getAccount(id)?.trustlines[trustlineKey(asset.getCode(), asset.getIssuer())];
      if (!line) return undefined;
      return {
        data: xdr.LedgerEntryData.trustline(
          new xdr.TrustLineEntry({
            accountId: k.accountId(),
            asset: assetXdr,
            balance: int64(line.balance),
            limit: int64(line.limit),
            flags: 1, // authorized
            ext: new xdr.TrustLineEntryExt(0),
          }),
        ),
        lastModifiedLedgerSeq: line.lastModifiedLedger,
      };
    }
    case "contractData": {
      const k = key.contractData();
      if (k.contract().switch().name !== "scAddressTypeContract") {
        return nonceEntry(k, state, latest);
      }
      const contract = Address.fromScAddress(k.contract()).toString();
      const entry = (val: xdr.ScVal, lastModifiedLedgerSeq: number): FoundEntry => ({
        data: xdr.LedgerEntryData.contractData(
          new xdr.ContractDataEntry({
            ext: new xdr.ExtensionPoint(0),
            contract: k.contract(),
            key: k.key(),
            durability: k.durability(),
            val,
          }),
        ),
        lastModifiedLedgerSeq,
        liveUntilLedgerSeq: latest + PERSISTENT_TTL,
      });
      const keyVal = k.key();
      if (keyVal.switch().name === "scvLedgerKeyContractInstance") {
        const asset = sacs.get(contract);
        if (asset) {
          return entry(
            xdr.ScVal.scvContractInstance(
              new xdr.ScContractInstance({
                executable: xdr.ContractExecutable.contractExecutableStellarAsset(),
                storage: null,
              }),
            ),
            2,
          );
        }
        if (state.wallets.has(contract)) {
          return entry(
            xdr.ScVal.scvContractInstance(
              new xdr.ScContractInstance({
                executable: xdr.ContractExecutable.contractExecutableWasm(
                  sha256("local-smart-wallet"),
                ),
                storage: null,
              }),
            ),
            2,
          );
        }
        if (k.durability().name === "temporary") return nonceEntry(k, state, latest);
        return undefined;
      }
      if (keyVal.switch().name === "scvLedgerKeyNonce") return nonceEntry(k, state, latest);
      const asset = sacs.get(contract);
      const parts = keyVal.switch().name === "scvVec" ? (keyVal.vec() ?? []) : [];
      if (
        !asset ||
        parts.length !== 2 ||
        parts[0].switch().name !== "scvSymbol" ||
        parts[0].sym().toString() !== "Balance" ||
        parts[1].switch().name !== "scvAddress" ||
        parts[1].address().switch().name !== "scAddressTypeContract"
      ) {
        return undefined;
      }
      const holder = Address.fromScVal(parts[1]).toString();
      const b = state.contractBalances.get(contractBalanceKey(holder, sep11(asset)));
      if (!b) return undefined;
      return entry(
        xdr.ScVal.scvMap([
          new xdr.ScMapEntry({ key: sym("amount"), val: i128(b.amount) }),
          new xdr.ScMapEntry({ key: sym("authorized"), val: xdr.ScVal.scvBool(true) }),
          new xdr.ScMapEntry({ key: sym("clawback"), val: xdr.ScVal.scvBool(false) }),
        ]),
        b.lastModifiedLedger,
      );
    }
    default:
      return undefined;
  }
}

/** A consumed nonce's temporary entry (its value is void). */
function nonceEntry(
  k: xdr.LedgerKeyContractData,
  state: LedgerState,
  latest: number,
): FoundEntry | undefined {
  if (k.key().switch().name !== "scvLedgerKeyNonce") return undefined;
  const address = Address.fromScAddress(k.contract()).toString();
  const nonce = k.key().nonceKey().nonce().toString();
  if (!state.nonces.has(`${address}:${nonce}`)) return undefined;
  return {
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: new xdr.ExtensionPoint(0),
        contract: k.contract(),
        key: k.key(),
        durability: k.durability(),
        val: xdr.ScVal.scvVoid(),
      }),
    ),
    lastModifiedLedgerSeq: latest,
    liveUntilLedgerSeq: latest + TEMPORARY_TTL,
  };
}
