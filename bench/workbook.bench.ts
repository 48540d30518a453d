// (i) An Excel workbook through the command line. Throughput: `spot-import import trees.xlsx`
// against `spot-import import trees.csv` of the same rows with the same mapping, the real CLI as
// a child process at the same concurrency, each against a fresh sandbox process, the order
// alternating by round; the goal is the ratio of the medians (≥ 0.8). Memory: validate and import
// of a much larger workbook, the CLI's peak resident set size read at its exit (< 256 MiB). The
// workbook is written as KoBoToolbox writes one: text in shared strings (a unique id per row: the
// shared strings are as large as they get), numbers as numbers.
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { median } from './sandboxProcess';
import { CONCURRENCY, runCli, USAGE_HOOK, writeTable, type ChildUsage } from './rows.bench';

type Side = 'workbook' | 'csv';

export interface WorkbookFigures {
  rows: number;
  rounds: Array<Record<Side, ChildUsage>>;
  workbookRowsPerSecond: number;
  csvRowsPerSecond: number;
  ratio: number;
  memoryRows: number;
  memoryValidate: ChildUsage;
  memoryImport: ChildUsage;
}

export async function benchWorkbook(distDir: string, scratch: string, rows: number, rounds: number, memoryRows: number): Promise<WorkbookFigures> {
  const cliPath = join(distDir, 'cli.js');
  const hook = join(scratch, 'child-usage.js');
  writeFileSync(hook, USAGE_HOOK);
  const measured: Array<Record<Side, ChildUsage>> = [];
  // Round 0 warms up the file cache; it is not counted.
  for (let round = 0; round <= rounds; round++) {
    const figures: Partial<Record<Side, ChildUsage>> = {};
    const sides: Side[] = round % 2 === 0 ? ['workbook', 'csv'] : ['csv', 'workbook'];
    for (const side of sides) {
      const folder = join(scratch, `${side}-${round}`);
      mkdirSync(folder, { recursive: true });
      const prefix = `${side}-${round}`;
      const target = side === 'workbook' ? await writeWorkbookTable(folder, prefix, rows) : await writeTable(folder, prefix, rows);
      figures[side] = await runCli(distDir, cliPath, hook, folder, ['import', '--concurrency', String(CONCURRENCY), target]);
      rmSync(folder, { recursive: true, force: true });
    }
    if (round > 0) measured.push(figures as Record<Side, ChildUsage>);
  }
  const big = join(scratch, 'workbook-memory');
  mkdirSync(big, { recursive: true });
  const table = await writeWorkbookTable(big, 'memory', memoryRows);
  const memoryValidate = await runCli(distDir, cliPath, hook, big, ['validate', table], false);
  const memoryImport = await runCli(distDir, cliPath, hook, big, ['import', '--concurrency', String(CONCURRENCY), table]);
  rmSync(big, { recursive: true, force: true });
  const workbookRowsPerSecond = median(measured.map((round) => rows / round.workbook.seconds));
  const csvRowsPerSecond = median(measured.map((round) => rows / round.csv.seconds));
  return {
    rows,
    rounds: measured,
    workbookRowsPerSecond,
    csvRowsPerSecond,
    ratio: workbookRowsPerSecond / csvRowsPerSecond,
    memoryRows,
    memoryValidate,
    memoryImport,
  };
}

export function printWorkbook(figures: WorkbookFigures): void {
  console.log(
    `(i) spot-import import of a workbook of ${figures.rows} rows (no media) against the same rows as a CSV, concurrency ${CONCURRENCY}, each against a fresh sandbox`,
  );
  figures.rounds.forEach((round, index) =>
    console.log(
      `    round ${index + 1}: workbook ${(figures.rows / round.workbook.seconds).toFixed(0)} rows/s, CSV ${(figures.rows / round.csv.seconds).toFixed(0)} rows/s, ratio ${(round.csv.seconds / round.workbook.seconds).toFixed(2)}`,
    ),
  );
  console.log(`    spot-import import trees.xlsx  ${figures.workbookRowsPerSecond.toFixed(0)} rows/s`);
  console.log(`    spot-import import trees.csv   ${figures.csvRowsPerSecond.toFixed(0)} rows/s`);
  console.log(`    workbook / CSV                 ${figures.ratio.toFixed(2)}  (goal ≥ 0.8) ${figures.ratio >= 0.8 ? 'met' : 'NOT MET'}`);
  const { memoryImport, memoryValidate } = figures;
  console.log(
    `    ${figures.memoryRows} rows, import:   ${memoryImport.seconds.toFixed(1)} s, peak RSS of the CLI ${memoryImport.peakRssMiB.toFixed(0)} MiB  (goal < 256) ${memoryImport.peakRssMiB < 256 ? 'met' : 'NOT MET'}`,
  );
  console.log(
    `    ${figures.memoryRows} rows, validate: ${memoryValidate.seconds.toFixed(1)} s, peak RSS of the CLI ${memoryValidate.peakRssMiB.toFixed(0)} MiB  (goal < 256) ${memoryValidate.peakRssMiB < 256 ? 'met' : 'NOT MET'}`,
  );
}

/** trees.xlsx (its sheet and shared strings streamed into the archive) and trees.mapping.json: the same rows and mapping as writeTable's CSV. */
async function writeWorkbookTable(folder: string, prefix: string, count: number): Promise<string> {
  const path = join(folder, 'trees.xlsx');
  const zip = new ZipFile();
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="trees" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/workbook.xml',
  );
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/_rels/workbook.xml.rels',
  );
  // Shared strings: the header's four, "bench", then one id per row.
  zip.addReadStream(
    Readable.from(
      (function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}"><si><t>id</t></si><si><t>lat</t></si><si><t>lon</t></si><si><t>note</t></si><si><t>bench</t></si>`;
        for (let i = 0; i < count; i++) yield `<si><t>${prefix}-${i}</t></si>`;
        yield '</sst>';
      })(),
    ),
    'xl/sharedStrings.xml',
  );
  zip.addReadStream(
    Readable.from(
      (function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>`;
        for (let i = 0; i < count; i++) {
          const r = i + 2;
          yield `<row r="${r}"><c r="A${r}" t="s"><v>${i + 5}</v></c><c r="B${r}"><v>48.2</v></c><c r="C${r}"><v>16.3</v></c><c r="D${r}" t="s"><v>4</v></c></row>`;
        }
        yield '</sheetData></worksheet>';
      })(),
    ),
    'xl/worksheets/sheet1.xml',
  );
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject));
  const mapping = { topic_id: 1, source_id: '{id}', latitude: 'lat', longitude: 'lon', fields: { fld_1_3: 'note' } };
  writeFileSync(join(folder, 'trees.mapping.json'), JSON.stringify(mapping, null, 2));
  return path;
}
