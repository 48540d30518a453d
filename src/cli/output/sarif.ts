// --format sarif: one SARIF 2.1.0 log for code scanning, written when the run ends. Each problem
// of a document is a result with its region (lines and columns in UTF-16 code units, as editors
// count them); a file that failed without a place in it (unreadable, refused by the service) is a
// result on the file itself. Paths inside the current folder are relative to %SRCROOT%, so the
// log can be uploaded from any checkout.
import { pathToFileURL } from 'node:url';
import { isAbsolute, sep } from 'node:path';
import type * as Sarif from 'sarif';
import type { LineWriter } from './lineWriter';
import type { CommandName, Finding, Outcome } from './records';
import type { Reporter } from './reporter';

interface Rule {
  id: string;
  text: string;
  level: Sarif.Result.level;
}

const RULES: Record<'invalid' | 'unreadable' | 'importFailed' | 'notAttempted' | 'uploadFailed', Rule> = {
  invalid: { id: 'spot/invalid-document', text: 'The spot document breaks a rule of the spot import interface.', level: 'error' },
  unreadable: { id: 'spot/unreadable', text: 'The file could not be read as a spot document.', level: 'error' },
  importFailed: { id: 'spot/import-failed', text: 'The service did not import the spot.', level: 'error' },
  notAttempted: { id: 'spot/not-attempted', text: 'The run stopped before this file was attempted.', level: 'warning' },
  uploadFailed: { id: 'spot/upload-failed', text: 'The media file was not uploaded.', level: 'error' },
};
/** What each family of finding rules is about (the part of the id before the dot). */
const RULE_FAMILIES: Record<string, string> = {
  topic: "A rule of the project's topic definitions.",
  topicDefinition: 'A topic definition file breaks a rule of the definition format.',
  row: 'A cell of a row of a table cannot be read as the spot the row stands for.',
  mapping: 'The mapping of a table (how its rows become spots) breaks a rule.',
};

/** A finding's own rule (topic.outOfRange, spot.schema, row.value, …): described once, where it first fires. */
function findingRule(id: string): Rule {
  const family = id.split('.')[0];
  const text = Object.hasOwn(RULE_FAMILIES, family)
    ? RULE_FAMILIES[family]
    : id === 'spot.media'
      ? 'The media folder or a media file of the spot document cannot be imported.'
      : 'The spot document breaks a rule of the spot import interface.';
  return { id, text, level: 'error' };
}

export interface SarifOptions {
  version: string;
  cwd: string;
}

export function sarifReporter(out: LineWriter, command: CommandName, options: SarifOptions): Reporter {
  const results: Sarif.Result[] = [];
  const rules: Rule[] = [];
  const indexOf = new Map<string, number>();
  const ruleIndex = (rule: Rule) => {
    let index = indexOf.get(rule.id);
    if (index === undefined) {
      index = rules.push(rule) - 1;
      indexOf.set(rule.id, index);
    }
    return index;
  };
  return {
    outcome(outcome) {
      results.push(...toResults(command, outcome, ruleIndex));
    },
    finish(summary) {
      const log: Sarif.Log = {
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        version: '2.1.0',
        runs: [
          {
            tool: {
              driver: {
                name: 'spot-import',
                version: options.version,
                rules: rules.map((rule) => ({ id: rule.id, shortDescription: { text: rule.text }, defaultConfiguration: { level: rule.level } })),
              },
            },
            originalUriBaseIds: { '%SRCROOT%': { uri: directoryUri(options.cwd) } },
            columnKind: 'utf16CodeUnits',
            invocations: [
              { executionSuccessful: summary.exitCode === 0 || summary.exitCode === 1, exitCode: summary.exitCode, commandLine: `spot-import ${command}` },
            ],
            results,
          },
        ],
      };
      out.line(JSON.stringify(log, null, 2));
    },
  };
}

function toResults(command: CommandName, outcome: Outcome, ruleIndex: (rule: Rule) => number): Sarif.Result[] {
  if (outcome.ok && outcome.findings.length === 0) return [];
  const rule =
    outcome.status === 'notAttempted' || outcome.status === 'interrupted'
      ? RULES.notAttempted
      : outcome.failure === 'unreadable'
        ? RULES.unreadable
        : outcome.failure === 'document' || outcome.findings.length > 0
          ? RULES.invalid
          : command === 'upload'
            ? RULES.uploadFailed
            : RULES.importFailed;
  const artifactLocation = artifact(outcome.file);
  const result = (message: string, finding?: Finding): Sarif.Result => {
    const fired = finding ? findingRule(finding.rule) : rule;
    return {
      ruleId: fired.id,
      ruleIndex: ruleIndex(fired),
      level: finding ? (finding.severity === 'warning' ? 'warning' : 'error') : rule.level,
      message: { text: finding?.mediaFile ? `${finding.mediaFile}: ${message}` : message },
      locations: [{ physicalLocation: { artifactLocation, ...(finding ? { region: region(finding) } : {}) } }],
      // A media problem is shown on the document's member; the media file is named beside it.
      ...(finding?.mediaFile
        ? { relatedLocations: [{ id: 1, physicalLocation: { artifactLocation: artifact(finding.mediaFile) }, message: { text: 'the media file' } }] }
        : {}),
      ...(finding?.pointer ? { properties: { pointer: finding.pointer } } : {}),
    };
  };
  if (outcome.findings.length === 0) return [result(outcome.reason ?? 'Failed.')];
  return outcome.findings.map((finding) => result(finding.message, finding));
}

function region(finding: Finding): Sarif.Region {
  return { startLine: finding.line, startColumn: finding.column, endLine: finding.endLine, endColumn: finding.endColumn };
}

/** A relative path becomes a relative URI under %SRCROOT%; an absolute one a file: URI. */
function artifact(file: string): Sarif.ArtifactLocation {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: file.split(sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function directoryUri(folder: string): string {
  const href = pathToFileURL(folder).href;
  return href.endsWith('/') ? href : `${href}/`;
}
