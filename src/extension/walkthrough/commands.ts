// The walkthrough's own commands. Its other buttons run the extension's ordinary commands. The
// example's two exist because a walkthrough page is not a text editor: "Import Spot" from a button
// there would find no active spot document, so the example is opened (or imported) by its address.
import type { CommandTable } from '../commands/commandTable';
import type { ExtensionServices } from '../platform/services';
import { importExample, openExample } from './example';
import { openWalkthrough } from './openWalkthrough';
import { COMMAND } from '../platform/commandIds';

export const walkthroughCommands = {
  /** Open the Walkthrough (the empty Galleries view's button, npm start). */
  [COMMAND.openWalkthrough]: (services: ExtensionServices) => openWalkthrough(services.context),
  /** Writes (once) and opens the example spot document beside the walkthrough. */
  [COMMAND.openExample]: openExample,
  /** Import Spot on the example document, whichever editor is active. */
  [COMMAND.importExample]: importExample,
} satisfies CommandTable;
