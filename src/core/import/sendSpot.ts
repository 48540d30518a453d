// The one place that sends a spot document, for every path: the editor's Import Spot (saved or
// not, and so Mark Spot Active), the folder import, the demo and the command line. What goes on
// the wire is the text that was validated, byte for byte, less a leading byte-order mark; never
// the document serialised again, which could differ from what the author wrote and was checked.
import type { ImportResult } from '../api/replySchemas';
import type { ServiceClient } from '../api/serviceClient';
import type { ReadySpot } from '../documents/parseSpotText';

export function sendSpot(client: Pick<ServiceClient, 'importSpot'>, spot: ReadySpot, options: { signal?: AbortSignal } = {}): Promise<ImportResult> {
  return client.importSpot(spot.document, { signal: options.signal, text: spot.text, pendingFields: spot.pendingGalleries });
}
