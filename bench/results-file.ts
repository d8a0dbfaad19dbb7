import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const FILE = path.join(import.meta.dirname, "results.md");

/** Replaces (or appends) one `## <title>` section of bench/results.md. */
export function writeSection(title: string, body: string): void {
  const header = `## ${title}`;
  let text = fs.existsSync(FILE)
    ? fs.readFileSync(FILE, "utf8")
    : "# Benchmark results\n\nWritten by `npm run bench`; each section is replaced when its bench runs again.\n";
  const section = `${header}\n\n${body.trim()}\n\n_Run ${new Date().toISOString()} on ${machine()}._\n`;
  const start = text.indexOf(`${header}\n`);
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}`;
  } else {
    const next = text.indexOf("\n## ", start + header.length);
    text = text.slice(0, start) + section + (next === -1 ? "" : text.slice(next + 1));
  }
  fs.writeFileSync(FILE, `${text.trimEnd()}\n`);
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
