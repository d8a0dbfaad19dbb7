// Sums every suite of `npm test` into the one closing line CI reads: `N passed, N failed`.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
// Each failed test by name with its first error line: CI keeps only the output's tail.
const failures = [];
for (const file of fs.readdirSync(dir).sort()) {
  const full = path.join(dir, file);
  if (file.startsWith("gate-")) {
    const ok = fs.readFileSync(full, "utf8").trim() === "pass";
    ok ? passed++ : failed++;
    rows.push(`${file.slice(5, -4)}: ${ok ? "pass" : "FAIL"}`);
  } else if (file.startsWith("vitest-")) {
    const r = JSON.parse(fs.readFileSync(full, "utf8"));
    // A file that failed to load counts as a failure even though it ran no test.
    const brokenFiles = r.testResults.filter(
      (t) => t.status === "failed" && t.assertionResults.length === 0,
    ).length;
    passed += r.numPassedTests;
    failed += r.numFailedTests + brokenFiles;
    skipped += r.numPendingTests + r.numTodoTests;
    for (const t of r.testResults) {
      const where = path.relative(process.cwd(), t.name);
      if (t.status === "failed" && t.assertionResults.length === 0) {
        failures.push(`${where}: ${firstLine(t.message)}`);
      }
      for (const a of t.assertionResults) {
        if (a.status === "failed") {
          failures.push(`${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
        }
      }
    }
    rows.push(
      `${file.slice(7, -5)}: ${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed`,
    );
  }
}
for (const expected of ["unit", "ledger", "integration", "e2e"]) {
  if (!fs.existsSync(path.join(dir, `vitest-${expected}.json`))) {
    failed++;
    rows.push(`${expected}: no report (suite did not run)`);
  }
}
if (failures.length > 0) {
  console.log("\n==> failed tests");
  for (const f of failures) console.log(`  ${f}`);
}
console.log("\n==> summary");
for (const r of rows) console.log(`  ${r}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);

function firstLine(message) {
  const line = String(message ?? "")
    .split("\n")
    .find((l) => l.trim() !== "");
  return (line ?? "(no message)").trim().slice(0, 300);
}
