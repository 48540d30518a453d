// One interface for every output format, chosen by --format. Formats that stream (text, JSON
// lines, GitHub workflow commands) write each outcome as it arrives; SARIF and JUnit are single
// documents, written when the run ends.
import type { Outcome, RunSummary } from './records';

export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface Reporter {
  outcome(outcome: Outcome): void;
  finish(summary: RunSummary): void;
}
