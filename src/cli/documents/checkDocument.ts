// One document checked exactly as an import checks it (the core's checkSpotForImport): read by
// the core's readSpotDocumentSync (which refuses a file too large to be a spot document before
// reading it, and one that is not UTF-8), parsed and validated, checked against the project's
// topic and topic definitions (importRules.ts) and, when the document has a media folder, with
// its media. Every problem carries a rule id (see ruleOf) and a severity.
import {
  BYTE_ORDER_MARK,
  checkSpotForImport,
  ruleOf,
  describeProblems,
  noMediaLayout,
  readSpotDocumentSync,
  repeatedSourceIdProblem,
  sourceIdOf,
  type SourceIdOwners,
  type LocatedProblem,
  type TopicCatalog,
  type TopicRules,
} from '../../core';
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

/** The project's rules as the core's topic rules (the engine's options, validate's check). */
export function topicRulesOf(rules: DocumentRules): TopicRules {
  return {
    topics: rules.topics,
    ...(rules.topic !== undefined ? { topic: { topicId: rules.topic, owner: 'this project', setIn: 'the "topic" of spot-import.json or --topic' } } : {}),
  };
}

export type CheckedDocument =
  | { ok: true; text: string; sourceId: string; findings: Finding[] }
  /** sourceId: the document's, when it has one (for the run's repeated source_id rule, see claimSourceId). */
  | { ok: false; text?: string; sourceId?: string; reason: string; findings: Finding[] };

/**
 * Reads a document through the core's one read (nothing larger than MAX_DOCUMENT_BYTES, strict
 * UTF-8), synchronously: for a file of a few hundred bytes, a stat and a read straight from this
 * thread cost a fraction of five trips through libuv's thread pool.
 */
export async function readDocumentText(path: string): Promise<{ text: string } | { error: string }> {
  try {
    return { text: readSpotDocumentSync(path) };
  } catch (error) {
    return { error: `Could not read the file: ${(error as Error).message}` };
  }
}

/**
 * Everything `validate` and `import --dry-run` check: the document, its topic, and its media
 * folder when it has one. Sends nothing.
 */
export async function checkDocumentFile(path: string, rules: DocumentRules, display: (path: string) => string): Promise<CheckedDocument> {
  const read = await readDocumentText(path);
  if ('error' in read) return { ok: false, reason: read.error, findings: [] };
  return checkDocumentText(path, read.text, rules, display);
}

/**
 * `withMedia` false (import --no-media --dry-run): the media folder is left alone, as the
 * engine's media: false leaves it, so the dry run refuses what the real run would refuse.
 */
export async function checkDocumentText(
  path: string,
  text: string,
  rules: DocumentRules,
  display: (path: string) => string,
  withMedia = true,
): Promise<CheckedDocument> {
  const check = await checkSpotForImport(path, text, {
    acceptedTypes: rules.acceptedTypes,
    ...topicRulesOf(rules),
    ...(withMedia ? {} : { layout: noMediaLayout(path) }),
  });
  const findings = toFindings(check.parsed.text, check.problems, display);
  const sourceId = sourceIdOf(check.parsed.value);
  if (sourceId !== undefined && check.ok) return { ok: true, text: check.parsed.text, sourceId, findings };
  const errors = findings.filter((finding) => finding.severity === 'error');
  return { ok: false, text: check.parsed.text, sourceId, reason: describeProblems(errors.length > 0 ? errors : findings, 'Not a spot document.'), findings };
}

/**
 * The import's rule for a source_id repeated within the run (SourceIdOwners, the engine's own),
 * for `validate` and `import --dry-run`: called for every document in input order, it claims the
 * document's source_id, and refuses an otherwise valid document whose source_id an earlier one
 * has, with the import's words, at its source_id.
 */
export function claimSourceId(checked: CheckedDocument, path: string, owners: SourceIdOwners, display: (path: string) => string): CheckedDocument {
  if (checked.sourceId === undefined) return checked;
  const earlier = owners.claim(checked.sourceId, path);
  if (earlier === undefined || !checked.ok) return checked;
  const problem = repeatedSourceIdProblem(checked.text, checked.sourceId, display(earlier));
  return {
    ok: false,
    text: checked.text,
    sourceId: checked.sourceId,
    reason: problem.message,
    findings: [...toFindings(checked.text, [problem], display), ...checked.findings],
  };
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
