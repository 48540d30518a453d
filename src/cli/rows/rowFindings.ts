// A row's problems as the command line reports them (records.ts Finding): at the cell, in the
// table's lines and columns; a cell's extent is not kept, so a finding marks its first character.
import { describeProblems } from '../../core';
import type { CellPosition } from '../../core/rows';
import type { Finding } from '../output/records';
import { isWebAddress } from '../../core/rows/mapping/webAddress';

export interface PlacedProblem {
  at: CellPosition;
  message: string;
  severity: 'error' | 'warning';
  rule: string;
  pointer: string;
  file?: string;
}

/** `nameCell`: how the table names a cell when not by line and column (a workbook's Sheet1!C12, a shapefile's feature). */
export function rowFindings(problems: readonly PlacedProblem[], display: (path: string) => string, nameCell?: (at: CellPosition) => string): Finding[] {
  return problems.map((problem) => ({
    line: problem.at.line,
    column: problem.at.column,
    endLine: problem.at.line,
    endColumn: problem.at.column + 1,
    message: problem.message,
    pointer: problem.pointer,
    severity: problem.severity,
    rule: problem.rule,
    // A photo given by its web address is named by the message itself (without the address's query).
    ...(problem.file && !isWebAddress(problem.file) ? { mediaFile: display(problem.file) } : {}),
    ...(nameCell !== undefined ? { cell: nameCell(problem.at) } : {}),
  }));
}

/** A row as an outcome names it: by line, or as the table names its first cell (rowFindings' `nameCell`). */
export function rowPlace(at: { row: number; line: number }, nameCell?: (at: CellPosition) => string): { row: number; line: number; cell?: string } {
  return { row: at.row, line: at.line, ...(nameCell !== undefined ? { cell: nameCell({ line: at.line, column: 1 }) } : {}) };
}

/**
 * Why a row is invalid, in one line: its first error and how many more, the words the import
 * engine gives a row it refuses and validate gives a document (describeProblems), so validate,
 * --dry-run, import and convert say the same of one row.
 */
export function rowReason(findings: readonly Finding[]): string {
  return describeProblems(
    findings.filter((finding) => finding.severity === 'error'),
    'The row breaks a rule.',
  );
}
