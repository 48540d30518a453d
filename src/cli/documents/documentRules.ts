// What documents are checked against beyond the spot interface (the project's topic and topic
// definitions, the accepted media types) as the engine's rules, and a document's problems as
// findings at their lines. The check itself is the engine's (checkSpots, streamImport).
import { BYTE_ORDER_MARK, ruleOf, type LocatedProblem, type TopicCatalog } from '../../core';
import { LineIndex } from '../output/location';
import type { Finding } from '../output/records';

/** What a document is checked against, beyond the spot import interface itself. */
export interface DocumentRules {
  /** The project's topic (spot-import.json "topic" or --topic): a document with another topic_id is refused. */
  topic?: number;
  /** The project's topic definitions, loaded once per run. */
  topics?: TopicCatalog;
  /** MIME types a gallery accepts (media checks). */
  acceptedTypes?: readonly string[];
}

/** `text` as read (a leading byte-order mark is not counted: the problems' offsets leave it out). */
export function toFindings(
  text: string,
  problems: ReadonlyArray<LocatedProblem & { file?: string }>,
  display: (path: string) => string = (path) => path,
): Finding[] {
  if (problems.length === 0) return [];
  const lines = new LineIndex(text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text);
  return problems.map((problem) => ({
    ...lines.region(problem.offset, problem.length),
    message: problem.message,
    pointer: problem.pointer,
    severity: problem.severity,
    rule: ruleOf(problem),
    ...(problem.file ? { mediaFile: display(problem.file) } : {}),
  }));
}
