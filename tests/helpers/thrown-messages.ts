import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Every message the server code can throw as a domain error, read from the source with the
 * TypeScript parser: each `new ValidationError(<message>, ...)` (and the other kinds that
 * become an HTTP answer) under lib/ and app/, spec.ts files aside (they are the document).
 * A message is resolved when it is a string literal, a template (its `${...}` parts match
 * anything), a constant, a local variable, or a call to a function whose returns are such;
 * otherwise the site is reported as unresolved, with its expression, so a test can list the
 * few computed ones knowingly (tests/openapi.test.ts).
 */

const ERROR_CLASSES = new Set([
  "ValidationError",
  "NotFoundError",
  "ForbiddenError",
  "ConflictError",
  "BusinessRuleError",
  "UnauthorizedError",
  "PayloadTooLargeError",
  "UnsupportedMediaTypeError",
  "UnavailableError",
  "RateLimitedError",
  "NetworkBusyError",
]);

export type ThrownMessage = {
  /** `lib/x.ts:12` */
  where: string;
  /** `lib/x.ts` */
  file: string;
  /** The argument as written. */
  expression: string;
  /** Each message the site can throw, `${...}` parts matching anything; null: unresolved. */
  patterns: { text: string; re: RegExp }[] | null;
};

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && e.name !== "spec.ts") {
        out.push(full);
      }
    }
  };
  walk(path.join(root, "lib"));
  walk(path.join(root, "app"));
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function thrownMessages(root: string): ThrownMessage[] {
  const sources = sourceFiles(root).map((f) =>
    ts.createSourceFile(f, fs.readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true),
  );
  // Top-level constants and the returns of top-level functions, by name, over all files.
  const constants = new Map<string, ts.Expression[]>();
  const returns = new Map<string, ts.Expression[]>();
  const add = (map: Map<string, ts.Expression[]>, name: string, e: ts.Expression) =>
    map.set(name, [...(map.get(name) ?? []), e]);
  for (const sf of sources) {
    sf.forEachChild((n) => {
      if (ts.isVariableStatement(n)) {
        for (const d of n.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.initializer) add(constants, d.name.text, d.initializer);
        }
      }
      if (ts.isFunctionDeclaration(n) && n.name && n.body) {
        const name = n.name.text;
        const visit = (m: ts.Node): void => {
          // `return assertNever(x)` is the exhaustive switch's end, never a message.
          const never = m.getText().startsWith("return assertNever(") || m.getText() === "return";
          if (ts.isReturnStatement(m) && m.expression && !never) add(returns, name, m.expression);
          else if (!ts.isFunctionLike(m)) m.forEachChild(visit);
        };
        n.body.forEachChild(visit);
      }
    });
  }

  type Pattern = { text: string; re: string };
  const resolve = (e: ts.Expression, depth = 0): Pattern[] | null => {
    if (depth > 6) return null;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) {
      return [{ text: e.text, re: escapeRe(e.text) }];
    }
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) {
      return resolve(e.expression, depth);
    }
    if (ts.isTemplateExpression(e)) {
      let text = e.head.text;
      let re = escapeRe(e.head.text);
      for (const span of e.templateSpans) {
        text += `<${span.expression.getText()}>${span.literal.text}`;
        re += `[\\s\\S]+?${escapeRe(span.literal.text)}`;
      }
      return [{ text, re }];
    }
    const all = (list: ts.Expression[] | undefined) => {
      if (!list?.length) return null;
      const out: Pattern[] = [];
      for (const item of list) {
        const p = resolve(item, depth + 1);
        if (!p) return null;
        out.push(...p);
      }
      return out;
    };
    if (ts.isIdentifier(e)) {
      // The variable of the enclosing function first, then a top-level constant.
      let scope: ts.Node = e;
      while (scope.parent && !ts.isFunctionLike(scope)) scope = scope.parent;
      const local: ts.Expression[] = [];
      if (ts.isFunctionLike(scope)) {
        const visit = (m: ts.Node): void => {
          if (
            ts.isVariableDeclaration(m) &&
            ts.isIdentifier(m.name) &&
            m.name.text === e.text &&
            m.initializer
          ) {
            local.push(m.initializer);
          }
          if (!ts.isFunctionLike(m)) m.forEachChild(visit);
        };
        scope.forEachChild(visit);
      }
      const found = local.length ? local : constants.get(e.text);
      return found?.length === 1 ? resolve(found[0], depth + 1) : null;
    }
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const name = e.expression.text;
      const arrow = constants.get(name);
      if (arrow?.length === 1 && ts.isArrowFunction(arrow[0]) && !ts.isBlock(arrow[0].body)) {
        return resolve(arrow[0].body as ts.Expression, depth + 1);
      }
      return all(returns.get(name));
    }
    return null;
  };

  const found: ThrownMessage[] = [];
  for (const sf of sources) {
    const file = path.relative(root, sf.fileName);
    const visit = (n: ts.Node): void => {
      if (
        ts.isNewExpression(n) &&
        ts.isIdentifier(n.expression) &&
        ERROR_CLASSES.has(n.expression.text) &&
        n.arguments?.length
      ) {
        const line = sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
        const patterns = resolve(n.arguments[0]);
        found.push({
          where: `${file}:${line}`,
          file,
          expression: n.arguments[0].getText(),
          patterns: patterns?.map((p) => ({ text: p.text, re: new RegExp(`^${p.re}$`) })) ?? null,
        });
      }
      n.forEachChild(visit);
    };
    sf.forEachChild(visit);
  }
  return found;
}
