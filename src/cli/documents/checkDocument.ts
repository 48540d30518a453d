// One document checked exactly as the editor checks it: read by the core's readSpotDocumentSync
// (which refuses a file too large to be a spot document before reading it, and one that is not
// UTF-8), parsed and validated by parseSpotText, then the project's topic definitions (checkSpotAgainstTopic) and, when the
// document has a media folder, the media workflow's own pre-flight check (checkSpotMedia). The
// CLI adds one check of its own: the project's topic, when spot-import.json names one, must be
// the document's topic_id. Every problem carries a rule id (see ruleOf) and a severity.
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { attributesOf, checkSpotAgainstTopic, checkSpotMedia, describeProblems, noMediaLayout, readSpotDocumentSync, repeatedSourceIdReason, sourceIdOf, type SourceIdOwners, type LocatedProblem, type ParsedSpotText, type SpotProblem, type TopicCatalog } from '../../core';
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

export type CheckedDocument =
  | { ok: true; text: string; sourceId: string; findings: Finding[] }
  /** sourceId: the document's, when it has one (for the run's repeated source_id rule, see claimSourceId). */
  | { ok: false; text?: string; sourceId?: string; reason: string; findings: Finding[] };

/** Rule ids for problems the core leaves without one, so every format can name the rule that fired. */
export const FALLBACK_RULES = {
  /** Not JSON, or not strict JSON. */
  syntax: 'spot.syntax',
  /** A member the spot import interface refuses (type, range, required). */
  schema: 'spot.schema',
  /** A problem with the document's media folder or one of its files. */
  media: 'spot.media',
  /** topic_id is not the project's topic (spot-import.json or --topic). */
  projectTopic: 'spot.projectTopic',
} as const;

export function ruleOf(problem: LocatedProblem & { file?: string }): string {
  if (problem.rule) return problem.rule;
  if (problem.file) return FALLBACK_RULES.media;
  return problem.syntax ? FALLBACK_RULES.syntax : FALLBACK_RULES.schema;
}

/**
 * Reads a document through the core's one read (nothing larger than MAX_DOCUMENT_BYTES, strict
 * UTF-8), synchronously: for a file of a few hundred bytes, a stat and a read straight from this
 * thread cost a fraction of five trips through libuv's thread pool, which was a third of the
 * CLI's time per document in the 10,000-document benchmark.
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
 * workflow's media: false leaves it, so the dry run refuses what the real run would refuse.
 */
export async function checkDocumentText(path: string, text: string, rules: DocumentRules, display: (path: string) => string, withMedia = true): Promise<CheckedDocument> {
  // checkSpotMedia is the workflow's own check: with media, a pending gallery needs no "state": 2.
  const layout = withMedia ? {} : { layout: noMediaLayout(path) };
  const media = await checkSpotMedia(path, text, { acceptedTypes: rules.acceptedTypes, topics: rules.topics, ...layout });
  return judge(text, media.parsed, media.problems, rules, display);
}

/**
 * The checks an import makes before the media workflow takes the document: its topic (project
 * topic and definitions). The base rules and the media are the workflow's to check; a document
 * refused here is never sent. Warnings come back as findings of a document that is still sent.
 */
export async function checkBeforeImport(
  path: string,
  text: string,
  rules: DocumentRules,
  display: (path: string) => string,
  parsed: ParsedSpotText,
): Promise<{ ok: true; findings: Finding[] } | { ok: false; reason: string; findings: Finding[] }> {
  const topicProblems = topicChecks(text, parsed, rules);
  if (!topicProblems.some((problem) => problem.severity === 'error')) return { ok: true, findings: toFindings(text, topicProblems, display) };
  // Refused: say everything that is wrong with it, as validate would (a rare path, so the media
  // check's cost does not matter here).
  const media = await checkSpotMedia(path, text, { acceptedTypes: rules.acceptedTypes, topics: rules.topics, parsed });
  const checked = judge(text, parsed, media.problems, rules, display);
  return checked.ok ? { ok: true, findings: checked.findings } : checked;
}

function judge(text: string, parsed: ParsedSpotText, baseProblems: readonly SpotProblem[], rules: DocumentRules, display: (path: string) => string): CheckedDocument {
  const problems: SpotProblem[] = [...baseProblems, ...topicChecks(text, parsed, rules)];
  const findings = toFindings(text, problems, display);
  const sourceId = sourceIdOf(parsed.value);
  if (sourceId !== undefined && !problems.some((problem) => problem.severity === 'error')) {
    return { ok: true, text, sourceId, findings };
  }
  const errors = findings.filter((finding) => finding.severity === 'error');
  return { ok: false, text, sourceId, reason: describeProblems(errors.length > 0 ? errors : findings, 'Not a spot document.'), findings };
}

/**
 * The import's rule for a source_id repeated within the run (SourceIdOwners, the media workflow's
 * own), for `validate` and `import --dry-run`: called for every document in input order, it claims
 * the document's source_id, and refuses an otherwise valid document whose source_id an earlier one
 * has, with the import's words.
 */
export function claimSourceId(checked: CheckedDocument, path: string, owners: SourceIdOwners, display: (path: string) => string): CheckedDocument {
  if (checked.sourceId === undefined) return checked;
  const earlier = owners.claim(checked.sourceId, path);
  if (earlier === undefined || !checked.ok) return checked;
  return { ok: false, text: checked.text, sourceId: checked.sourceId, reason: repeatedSourceIdReason(checked.sourceId, display(earlier)), findings: checked.findings };
}

/** The project topic and the topic definitions; nothing when the document is not JSON at all. */
function topicChecks(text: string, parsed: ParsedSpotText, rules: DocumentRules): LocatedProblem[] {
  if (parsed.value === undefined) return [];
  const problems: LocatedProblem[] = [];
  // Any JSON value: null and arrays included.
  const topicId = attributesOf(parsed.value)?.topic_id;
  if (rules.topic !== undefined && typeof topicId === 'number' && topicId !== rules.topic) problems.push(topicProblem(text, topicId, rules.topic));
  if (rules.topics) problems.push(...checkSpotAgainstTopic({ text: parsed.text, value: parsed.value }, rules.topics));
  return problems;
}

export function toFindings(text: string, problems: ReadonlyArray<LocatedProblem & { file?: string }>, display: (path: string) => string = (path) => path): Finding[] {
  if (problems.length === 0) return [];
  const lines = new LineIndex(text);
  return problems.map((problem) => ({
    ...lines.region(problem.offset, problem.length),
    message: problem.message,
    pointer: problem.pointer,
    severity: problem.severity,
    rule: ruleOf(problem),
    ...(problem.file ? { mediaFile: display(problem.file) } : {}),
  }));
}

export function topicProblem(text: string, actual: number, expected: number): LocatedProblem {
  const node = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, ['data', 'attributes', 'topic_id']);
  return {
    pointer: '/data/attributes/topic_id',
    message: `topic_id is ${actual}, but this project imports into topic ${expected} (the "topic" of spot-import.json or --topic).`,
    offset: node?.offset ?? 0,
    length: node?.length ?? 0,
    severity: 'error',
    rule: FALLBACK_RULES.projectTopic,
  };
}
