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

/**
 * Replaces (or appends) one `### <sub>` part of the `## <title>` section, leaving the section's
 * other parts alone: two benches write one section (bench/scale.ts, bench/cold-start.ts).
 */
export function writeSubsection(title: string, sub: string, body: string): void {
  const header = `## ${title}`;
  const text = fs.existsSync(FILE) ? fs.readFileSync(FILE, "utf8") : "";
  const start = text.indexOf(`${header}\n`);
  let current = "";
  if (start !== -1) {
    const next = text.indexOf("\n## ", start + header.length);
    current = text.slice(start + header.length + 1, next === -1 ? undefined : next + 1);
  }
  const part = `### ${sub}\n\n${body.trim()}\n\n_Run ${new Date().toISOString()} on ${machine()}._\n`;
  const at = current.indexOf(`### ${sub}\n`);
  if (at === -1) {
    current = `${current.trim()}\n\n${part}`;
  } else {
    const next = current.indexOf("\n### ", at + sub.length);
    current = current.slice(0, at) + part + (next === -1 ? "" : current.slice(next + 1));
  }
  writeRaw(title, current);
}

/** writeSection without its own "Run ... on" line (each part carries one). */
function writeRaw(title: string, body: string): void {
  const header = `## ${title}`;
  let text = fs.existsSync(FILE) ? fs.readFileSync(FILE, "utf8") : "# Benchmark results\n";
  const section = `${header}\n\n${body.trim()}\n`;
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
