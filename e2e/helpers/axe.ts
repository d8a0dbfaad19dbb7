import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

export type Finding = { id: string; impact: string; help: string; targets: string[] };

/** axe-core's WCAG scan of the page as it is now; only serious and critical findings. */
export async function seriousViolations(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
}
