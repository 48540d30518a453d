// Text output is read in a terminal and by editors' problem matchers: a control character in a
// file name, a member name or a topic's label (which messages quote) could clear the screen,
// recolour it or forge a `file:line:col:` line. Every string of an outcome is shown with its
// control characters as U+FFFD before the text reporter words and colours it (the other formats
// escape what they write).
import { printable } from '../../core/text/printable';
import type { Outcome } from './records';

export function printableOutcome(outcome: Outcome): Outcome {
  return printableValue(outcome) as Outcome;
}

function printableValue(value: unknown): unknown {
  if (typeof value === 'string') return printable(value);
  if (Array.isArray(value)) return value.map(printableValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, printableValue(member)]));
}
