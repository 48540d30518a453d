// For the rows tests: a table and its mapping written to a fresh folder, every row checked by the
// engine's check (checkRows), as validate and the import see them.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TopicCatalog } from '../../../src/core';
import { checkRows, openMappedTable, parseMapping, type CheckedRow, type SourceTable } from '../../../src/core/rows';

/** `text` written as `name` with `mapping` beside it; the mapping must have no problems. */
export async function checkedTable(
  name: string,
  text: string | Buffer,
  mapping: object,
  topics?: TopicCatalog,
): Promise<{ rows: CheckedRow[]; table: SourceTable }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rows-checked-'));
  try {
    const table = path.join(dir, name);
    await fs.writeFile(table, text);
    const parsed = parseMapping(path.join(dir, `${name.replace(/\.[^.]+$/, '')}.mapping.json`), JSON.stringify(mapping));
    const mapped = await openMappedTable(table, parsed, { topics });
    assert.deepEqual(
      mapped.problems.map((problem) => problem.message),
      [],
    );
    const rows: CheckedRow[] = [];
    for await (const row of checkRows(mapped.table, mapped.mapping!, { topics })) rows.push(row);
    return { rows, table: mapped.table };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The attributes of the spot document a checked row stands for. */
export function attributesOfRow(row: CheckedRow): Record<string, unknown> {
  return (JSON.parse(row.spot!.text) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}
