// What an import of the workflow sends: the document text itself (as edited, formatting kept),
// and the document parsed from that same text. One place, so the text that is checked is the
// text that is sent and the text that is written back.
import type { SpotDocument } from '../api/spotSchema';
import { parseSpotText, type LocatedProblem } from '../documents/parseSpotText';

export type ImportPayload = { ok: true; document: SpotDocument; text: string } | { ok: false; problems: LocatedProblem[] };

export function importPayload(text: string): ImportPayload {
  const parsed = parseSpotText(text);
  return parsed.document ? { ok: true, document: parsed.document, text } : { ok: false, problems: parsed.problems };
}
