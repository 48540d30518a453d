// The walkthrough's own commands. Its other buttons run the extension's ordinary commands. The
// example's two exist because a walkthrough page is not a text editor: "Import Spot" from a button
// there would find no active spot document, so the example is opened (or imported) by its address.
import type { CommandTable } from '../commands/commandTable';
import type { ExtensionServices } from '../platform/services';
import { importExample, openExample } from './example';
import { openWalkthrough } from './openWalkthrough';

export const walkthroughCommands = {
  'spotImport.walkthrough.open': (services: ExtensionServices) => openWalkthrough(services.context),
  'spotImport.walkthrough.openExample': openExample,
  'spotImport.walkthrough.importExample': importExample,
} satisfies CommandTable;

type WalkthroughCommand = keyof typeof walkthroughCommands;

/** Open the Walkthrough (the empty Galleries view's button). */
export const OPEN_WALKTHROUGH_COMMAND: WalkthroughCommand = 'spotImport.walkthrough.open';
/** Open an Example: writes (once) and opens the example spot document beside the walkthrough. */
export const OPEN_EXAMPLE_COMMAND: WalkthroughCommand = 'spotImport.walkthrough.openExample';
/** Import the Example: Import Spot on the example document, whichever editor is active. */
export const IMPORT_EXAMPLE_COMMAND: WalkthroughCommand = 'spotImport.walkthrough.importExample';
