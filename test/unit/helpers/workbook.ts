// Workbooks written by the tests as Excel writes them (the parts of ECMA-376 SpreadsheetML a
// reader meets: workbook, relationships, styles, shared strings, sheets), zipped with yazl, so
// each test says exactly which cells, styles and date system its workbook has.
import { createWriteStream } from 'node:fs';
import { ZipFile } from 'yazl';

export interface TestSheet {
  name: string;
  /** The <sheetData> rows, as XML. */
  rows: string;
  /** What follows <sheetData> in the sheet (e.g. <mergeCells>), as XML. */
  after?: string;
  /** Hidden as Excel hides a sheet (Hide) or as a form tool or macro does (veryHidden: not even listed under Unhide). */
  state?: 'hidden' | 'veryHidden';
}

export interface TestWorkbook {
  sheets: TestSheet[];
  sharedStrings?: string[];
  /**
   * Where the shared strings and the styles are, as the workbook's relationships name them (Excel:
   * sharedStrings.xml and styles.xml beside workbook.xml; other writers other names or folders).
   */
  parts?: { sharedStrings?: string; styles?: string };
  /** The numFmtId of each cell style (cellXfs), index 0 first; custom formats in numFmts. */
  styles?: number[];
  numFmts?: Record<number, string>;
  date1904?: boolean;
  /** Extra entries, by name (a zip bomb, a stray file). */
  extra?: Record<string, Buffer>;
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function writeWorkbook(path: string, workbook: TestWorkbook): Promise<void> {
  const zip = new ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text, 'utf8'), name);
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  add(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
  );
  add(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${main}" xmlns:r="${rel}"><workbookPr${workbook.date1904 ? ' date1904="1"' : ''}/><sheets>${workbook.sheets
      .map(
        (sheet, index) => `<sheet name="${escape(sheet.name)}" sheetId="${index + 1}"${sheet.state ? ` state="${sheet.state}"` : ''} r:id="rId${index + 1}"/>`,
      )
      .join('')}</sheets></workbook>`,
  );
  add(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${workbook.sheets
      .map((_, index) => `<Relationship Id="rId${index + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`)
      .join('')}${workbook.parts?.sharedStrings ? `<Relationship Id="rIdS" Type="${rel}/sharedStrings" Target="${workbook.parts.sharedStrings}"/>` : ''}${
      workbook.parts?.styles ? `<Relationship Id="rIdT" Type="${rel}/styles" Target="${workbook.parts.styles}"/>` : ''
    }</Relationships>`,
  );
  const numFmts = Object.entries(workbook.numFmts ?? {});
  const partPath = (target: string | undefined, fallback: string) => (target ? (target.startsWith('/') ? target.slice(1) : `xl/${target}`) : fallback);
  add(
    partPath(workbook.parts?.styles, 'xl/styles.xml'),
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${main}">${
      numFmts.length > 0
        ? `<numFmts count="${numFmts.length}">${numFmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escape(code)}"/>`).join('')}</numFmts>`
        : ''
    }<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs>${(workbook.styles ?? [0]).map((id) => `<xf numFmtId="${id}" xfId="0"/>`).join('')}</cellXfs></styleSheet>`,
  );
  if (workbook.sharedStrings) {
    add(
      partPath(workbook.parts?.sharedStrings, 'xl/sharedStrings.xml'),
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${main}" count="${workbook.sharedStrings.length}">${workbook.sharedStrings
        .map((text) => (text.startsWith('<') ? `<si>${text}</si>` : `<si><t xml:space="preserve">${escape(text)}</t></si>`))
        .join('')}</sst>`,
    );
  }
  workbook.sheets.forEach((sheet, index) =>
    add(
      `xl/worksheets/sheet${index + 1}.xml`,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${main}"><sheetData>${sheet.rows}</sheetData>${sheet.after ?? ''}</worksheet>`,
    ),
  );
  for (const [name, bytes] of Object.entries(workbook.extra ?? {})) zip.addBuffer(bytes, name);
  zip.end();
  return new Promise((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject);
  });
}
