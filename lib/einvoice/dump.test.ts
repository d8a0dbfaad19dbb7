import fs from "node:fs";
import { it } from "vitest";
import { CASES } from "@/tests/helpers/einvoice-cases";
import { ciiSchemaErrors } from "@/tests/helpers/cii-xsd";
import { buildCii } from "./cii";

it("dump", async () => {
  const docs = CASES.map((c, i) => ({ name: `case${String(i + 1).padStart(2, "0")}`, xml: buildCii(c.input, c.profile) }));
  for (const d of docs) fs.writeFileSync(`/tmp/cii-out/${d.name}.xml`, d.xml);
  const errors = await ciiSchemaErrors(docs);
  console.log(JSON.stringify(errors, null, 1));
});
