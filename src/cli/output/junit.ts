// --format junit: one test case per document (or media file), the report CI servers show as
// tests (newman -r junit, Thunder Client's CLI). Written when the run ends; a failed case carries
// the reason and every located problem as `file:line:col: message` lines.
import type { LineWriter } from './lineWriter';
import type { CommandName } from './records';
import type { Reporter } from './reporter';

export function junitReporter(out: LineWriter, command: CommandName): Reporter {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  return {
    outcome(outcome) {
      // A row of a table is a test case of its own.
      const name = attribute(outcome.row ? `${outcome.file}:${outcome.row.cell ?? outcome.row.line} (row ${outcome.row.row})` : outcome.file);
      const open = `    <testcase classname="spot-import.${command}" name="${name}" file="${attribute(outcome.file)}"`;
      if (outcome.ok) {
        cases.push(`${open}/>`);
      } else if (outcome.status === 'notAttempted' || outcome.status === 'interrupted') {
        skipped++;
        cases.push(`${open}>\n      <skipped message="${attribute(outcome.reason ?? '')}"/>\n    </testcase>`);
      } else {
        failures++;
        const details = outcome.findings.map(
          (finding) => `${outcome.file}:${finding.line}:${finding.column}: ${finding.mediaFile ? `${finding.mediaFile}: ` : ''}${finding.message}`,
        );
        const body = text(details.length > 0 ? details.join('\n') : (outcome.reason ?? ''));
        cases.push(`${open}>\n      <failure message="${attribute(outcome.reason ?? 'failed')}" type="${outcome.status}">${body}</failure>\n    </testcase>`);
      }
    },
    finish(summary) {
      const seconds = (summary.durationMs / 1000).toFixed(3);
      const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}"`;
      out.line('<?xml version="1.0" encoding="UTF-8"?>');
      out.line(`<testsuites name="spot-import" ${counts}>`);
      out.line(`  <testsuite name="spot-import ${command}" ${counts}>`);
      for (const entry of cases) out.line(entry);
      out.line('  </testsuite>');
      out.line('</testsuites>');
    },
  };
}

// XML 1.0 allows neither most control characters nor lone surrogates, even escaped.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function text(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
