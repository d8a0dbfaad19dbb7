import fs from "node:fs";
import path from "node:path";
import { validateXML } from "xmllint-wasm";

// The CII D16B schema (EN 16931's "uncoupled" subset), read from the shared reference folder
// beside the project (../shared/einvoice, or ../../shared/einvoice from a worktree, or
// EINVOICE_SHARED_DIR) when it is there; the product never reads it. A test without it says so
// and skips.

const ENTRY = "CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd";

export const CII_XSD_DIR = [
  process.env.EINVOICE_SHARED_DIR && path.join(process.env.EINVOICE_SHARED_DIR, "cii-d16b"),
  path.resolve(process.cwd(), "../shared/einvoice/cii-d16b"),
  path.resolve(process.cwd(), "../../shared/einvoice/cii-d16b"),
].find((dir): dir is string => !!dir && fs.existsSync(path.join(dir, ENTRY)));

export const CII_XSD_MISSING =
  "the CII D16B schema folder (../shared/einvoice/cii-d16b) is not beside the project: XSD validation skipped";

type Xsd = {
  schema: { fileName: string; contents: string };
  preload: { fileName: string; contents: string }[];
};
let loaded: Xsd | undefined;

function load(): Xsd {
  if (loaded) return loaded;
  if (!CII_XSD_DIR) throw new Error(CII_XSD_MISSING);
  const files: { fileName: string; contents: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".xsd")) {
        files.push({
          fileName: path.relative(CII_XSD_DIR as string, full),
          contents: fs.readFileSync(full, "utf8"),
        });
      }
    }
  };
  walk(CII_XSD_DIR);
  const schema = files.find((f) => f.fileName === ENTRY) as { fileName: string; contents: string };
  loaded = { schema, preload: files.filter((f) => f !== schema) };
  return loaded;
}

/** The schema errors of each document (empty when valid), one libxml2 run for all of them. */
export async function ciiSchemaErrors(
  documents: { name: string; xml: string }[],
): Promise<string[][]> {
  const xsd = load();
  const result = await validateXML({
    xml: documents.map((d) => ({ fileName: `${d.name}.xml`, contents: d.xml })),
    schema: [xsd.schema],
    preload: xsd.preload,
  });
  return documents.map((d) =>
    result.errors
      .filter((e) =>
        e.loc ? e.loc.fileName === `${d.name}.xml` : e.rawMessage.startsWith(`${d.name}.xml `),
      )
      .map((e) => e.rawMessage),
  );
}
