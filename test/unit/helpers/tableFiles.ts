// For the table reader's tests: a folder of real files written by the test, reading every row of a
// table, and where a text is in a file counted the naive way (independently of the reader).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRowReadProblem, openTable, type RowReadProblem, type SourceFormat, type SourceRow, type SourceTable } from '../../../src/core/rows';

/** A fresh folder for each test; `write` puts a file in it (text as UTF-8, or bytes as they are). */
export function useTableFolder(prefix: string): { dir: () => string; write: (name: string, content: string | Uint8Array) => string } {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir: () => dir,
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}

/** Opens a table and reads all its rows, rows and problems apart and in one list. */
export async function readAll(
  path: string,
  given?: Partial<SourceFormat>,
): Promise<{ table: SourceTable; rows: SourceRow[]; problems: RowReadProblem[]; items: Array<SourceRow | RowReadProblem> }> {
  const table = await openTable(path, given);
  const items: Array<SourceRow | RowReadProblem> = [];
  for await (const item of table.rows()) items.push(item);
  return { table, items, rows: items.filter((item): item is SourceRow => !isRowReadProblem(item)), problems: items.filter(isRowReadProblem) };
}

/**
 * Line and column (1-based, UTF-16) of the `nth` (1-based) occurrence of `needle` in `text`, as an
 * editor shows it: the text before it split at CRLF, LF and CR. `text` is the file's text without
 * its byte-order mark.
 */
export function positionOf(text: string, needle: string, nth = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`${JSON.stringify(needle)} is not ${nth} times in the text`);
  }
  const before = text.slice(0, index).split(/\r\n|\r|\n/);
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** `text` in a one-byte encoding given by the bytes of its letters that are not ASCII (from the encoding's published table, not the reader's). */
export function encodedWith(table: Readonly<Record<string, number>>, text: string): Uint8Array {
  return Uint8Array.from([...text].map((char) => table[char] ?? (char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : assert.fail(`no byte for ${char}`))));
}
