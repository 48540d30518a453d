// An automated accessibility audit (axe-core, from npm) of a part of the page the extension draws:
// injected into the frame through the browser's debugging protocol, so the workbench's and the
// webviews' Content Security Policies are not in the way. A violation of impact "serious" or
// "critical" fails a test (serious()); the lesser ones are listed in its output.
import { readFileSync } from 'fs';
import type { Frame } from 'playwright-core';

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe on the element of `frame` that `selector` finds (WCAG 2.x A and AA rules), less `skip`. */
export async function audit(frame: Frame, selector: string, skip: string[] = []): Promise<Violation[]> {
  const hasAxe = await frame.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!hasAxe) await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(
    async ({ scope, skip }) => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Element,
              options: unknown,
            ): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }>;
          };
        }
      ).axe;
      const element = document.querySelector(scope);
      if (!element) throw new Error(`nothing matches ${scope}`);
      const rules = Object.fromEntries(skip.map((rule) => [rule, { enabled: false }]));
      const result = await axe.run(element, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, rules });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    { scope: selector, skip },
  );
}

export function serious(violations: Violation[]): Violation[] {
  for (const violation of violations)
    console.log(`      axe ${violation.impact ?? '?'}: ${violation.id} (${violation.help}) at ${violation.targets.slice(0, 3).join(', ')}`);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
