// The parts of a workbook (ECMA-376, SpreadsheetML) a table needs besides its sheet: the sheets by
// name and where each is (workbook.xml and its relationships), the date system, which cell styles
// show dates (styles.xml), and the shared strings. Read with a streaming XML parser (saxes), each
// part once when the workbook is opened.
import { posix } from 'node:path';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import { l10n } from '../../../text/l10n';
import type { ZipArchive } from '../archive/zipArchive';
import { isDateFormat } from './excelDates';

export interface WorkbookSheet {
  name: string;
  /** The sheet's part in the archive ("xl/worksheets/sheet1.xml"). */
  part: string;
  /** Hidden (state "hidden" or "veryHidden"): a form tool's settings, a lookup list; read only when a mapping names it. */
  hidden?: true;
}

export interface WorkbookParts {
  sheets: WorkbookSheet[];
  /** The 1904 date system (workbooks made by Excel for Mac before 2011, and some others). */
  date1904: boolean;
  /** By cell style index (a cell's `s`): its number format, when that shows a date or a time. */
  dateStyles: Map<number, { numFmtId: number; formatCode?: string }>;
  sharedStrings: string[];
}

export class WorkbookError extends Error {}

const WORKBOOK = 'xl/workbook.xml';

export async function readWorkbookParts(archive: ZipArchive): Promise<WorkbookParts> {
  if (!archive.has(WORKBOOK)) throw new WorkbookError(l10n.t('it is a ZIP archive but not an Excel workbook (it has no {0})', WORKBOOK));
  const workbook = await readWorkbook(await archive.text(WORKBOOK));
  const relationships = await readRelationships(archive, 'xl/_rels/workbook.xml.rels');
  const sheets = workbook.sheets.flatMap(({ name, id, hidden }) => {
    const related = relationships.get(id);
    return related ? [{ name, part: related.part, ...(hidden ? { hidden } : {}) }] : [];
  });
  if (sheets.length === 0) throw new WorkbookError(l10n.t('the workbook has no sheet'));
  // Where the relationships say (other writers than Excel name them otherwise), else Excel's names.
  const partOfType = (type: string, fallback: string) => [...relationships.values()].find((related) => related.type === type)?.part ?? fallback;
  const stylesPart = partOfType(`${RELATIONSHIP_TYPES}/styles`, 'xl/styles.xml');
  const stringsPart = partOfType(`${RELATIONSHIP_TYPES}/sharedStrings`, 'xl/sharedStrings.xml');
  const dateStyles = archive.has(stylesPart) ? readDateStyles(await archive.text(stylesPart)) : new Map();
  const sharedStrings = archive.has(stringsPart) ? await readSharedStrings(archive, stringsPart) : [];
  return { sheets, date1904: workbook.date1904, dateStyles, sharedStrings };
}

/** ECMA-376's relationship types (Transitional; Strict workbooks name the same parts with the part after its last slash). */
const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A parser over one part; `onOpen`/`onClose`/`onText` see its elements by local name. */
export function partParser(handlers: {
  onOpen?: (name: string, attributes: Record<string, string>) => void;
  onClose?: (name: string) => void;
  onText?: (text: string) => void;
}): SaxesParser {
  const { SaxesParser: Parser } = require('saxes') as typeof import('saxes');
  const parser = new Parser();
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  if (handlers.onOpen) {
    const onOpen = handlers.onOpen;
    parser.on('opentag', (tag: SaxesTagPlain) => onOpen(local(tag.name), tag.attributes as Record<string, string>));
  }
  if (handlers.onClose) {
    const onClose = handlers.onClose;
    parser.on('closetag', (tag: SaxesTagPlain) => onClose(local(tag.name)));
  }
  if (handlers.onText) {
    parser.on('text', handlers.onText);
    parser.on('cdata', handlers.onText);
  }
  return parser;
}

function parseWhole(text: string, handlers: Parameters<typeof partParser>[0]): void {
  const parser = partParser(handlers);
  parser.write(text).close();
}

async function readWorkbook(text: string): Promise<{ sheets: Array<{ name: string; id: string; hidden: boolean }>; date1904: boolean }> {
  const sheets: Array<{ name: string; id: string; hidden: boolean }> = [];
  let date1904 = false;
  parseWhole(text, {
    onOpen: (name, attributes) => {
      if (name === 'sheet')
        sheets.push({ name: attributes.name ?? '', id: attributes['r:id'] ?? '', hidden: attributes.state === 'hidden' || attributes.state === 'veryHidden' });
      else if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
    },
  });
  return { sheets, date1904 };
}

/** The workbook's relationships by Id: each target as a part of the archive (relative to xl/ unless it starts with /), and its type. */
async function readRelationships(archive: ZipArchive, part: string): Promise<Map<string, { part: string; type: string }>> {
  const related = new Map<string, { part: string; type: string }>();
  if (!archive.has(part)) return related;
  parseWhole(await archive.text(part), {
    onOpen: (name, attributes) => {
      const target = attributes.Target;
      if (name !== 'Relationship' || !attributes.Id || !target) return;
      // A Strict workbook's types are purl.oclc.org's: the same names after the last slash.
      const type = `${RELATIONSHIP_TYPES}/${(attributes.Type ?? '').slice((attributes.Type ?? '').lastIndexOf('/') + 1)}`;
      related.set(attributes.Id, { part: target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target)), type });
    },
  });
  return related;
}

function readDateStyles(text: string): Map<number, { numFmtId: number; formatCode?: string }> {
  const formats = new Map<number, string>();
  const styles: number[] = [];
  let inCellXfs = false;
  parseWhole(text, {
    onOpen: (name, attributes) => {
      if (name === 'numFmt') formats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styles.push(Number(attributes.numFmtId ?? 0));
    },
    onClose: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  const dates = new Map<number, { numFmtId: number; formatCode?: string }>();
  styles.forEach((numFmtId, index) => {
    const formatCode = formats.get(numFmtId);
    if (isDateFormat(numFmtId, formatCode)) dates.set(index, { numFmtId, ...(formatCode !== undefined ? { formatCode } : {}) });
  });
  return dates;
}

/** The shared strings, rich text as its plain text (phonetic runs left out), streamed: the part can be large. */
async function readSharedStrings(archive: ZipArchive, part: string): Promise<string[]> {
  const strings: string[] = [];
  let current: string[] | undefined;
  let inText = false;
  let inPhonetic = false;
  const parser = partParser({
    onOpen: (name) => {
      if (name === 'si') current = [];
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && !inPhonetic) inText = true;
    },
    onClose: (name) => {
      if (name === 'si') {
        strings.push((current ?? []).join(''));
        current = undefined;
      } else if (name === 'rPh') inPhonetic = false;
      else if (name === 't') inText = false;
    },
    onText: (text) => {
      if (inText) current?.push(text);
    },
  });
  const { StringDecoder } = require('node:string_decoder') as typeof import('node:string_decoder');
  const decoder = new StringDecoder('utf8');
  for await (const chunk of await archive.stream(part)) parser.write(decoder.write(chunk as Buffer));
  parser.write(decoder.end()).close();
  return strings;
}
