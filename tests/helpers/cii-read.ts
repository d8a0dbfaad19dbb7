import { create } from "xmlbuilder2";

// Reading a CII document back in tests: child paths by prefixed name ("ram:A/ram:B") from a
// node, descendants by name, texts and decimals. The rules the tests check are written with it.

export type El = Element;

export function parseCii(xml: string): El {
  const doc = create(xml).node as unknown as Document;
  return doc.documentElement;
}

/** The children of `from` along a path of prefixed names; `//` starts with descendants. */
export function all(from: El, path: string): El[] {
  let nodes: El[] = [from];
  const steps = path.split("/");
  let descend = false;
  for (const step of steps) {
    if (step === "") {
      descend = true;
      continue;
    }
    const next: El[] = [];
    for (const node of nodes) {
      const pool = descend
        ? [...node.getElementsByTagName(step)]
        : [...node.childNodes].filter((c): c is El => c.nodeType === 1 && c.nodeName === step);
      next.push(...pool);
    }
    nodes = next;
    descend = false;
  }
  return nodes;
}

export const one = (from: El, path: string): El | undefined => all(from, path)[0];
export const text = (from: El, path: string): string | undefined =>
  one(from, path)?.textContent ?? undefined;
export const texts = (from: El, path: string): string[] =>
  all(from, path).map((e) => e.textContent ?? "");
