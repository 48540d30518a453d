// Every command id the code names: ours (each contributed in package.json contributes.commands
// and registered by a command table or registerCommand), and the few of VS Code's own it runs or links to.
// scripts/checkCommands.js (npm test) reads this file: every id used in code must be one of ours
// that is contributed and registered, or listed as VS Code's here; and every contributed one must
// be registered. Keep to one `key: 'id',` per line.

/** Our commands, by what they do. */
export const COMMAND = {
  addProfile: 'spotImport.addProfile',
  setCredentials: 'spotImport.setCredentials',
  switchProfile: 'spotImport.switchProfile',
  removeProfile: 'spotImport.removeProfile',
  testConnection: 'spotImport.testConnection',
  signOut: 'spotImport.signOut',
  importSpot: 'spotImport.importSpot',
  importSpotWithMedia: 'spotImport.importSpotWithMedia',
  importFolder: 'spotImport.importFolder',
  newSpotDocument: 'spotImport.newSpotDocument',
  importRows: 'spotImport.rows.import',
  previewRow: 'spotImport.rows.preview',
  createMapping: 'spotImport.rows.createMapping',
  showRows: 'spotImport.showRows',
  refreshGalleries: 'spotImport.galleries.refresh',
  revealGallery: 'spotImport.galleries.reveal',
  refreshGallery: 'spotImport.gallery.refresh',
  addGalleryById: 'spotImport.gallery.addById',
  copyGalleryId: 'spotImport.gallery.copyId',
  removeGallery: 'spotImport.gallery.remove',
  openGalleryJson: 'spotImport.gallery.openJson',
  openGalleryGrid: 'spotImport.gallery.openGrid',
  uploadToGalleryNode: 'spotImport.gallery.upload',
  loadMoreMedia: 'spotImport.gallery.loadMore',
  copyMediaId: 'spotImport.media.copyId',
  openMedia: 'spotImport.media.openFile',
  moveMediaUp: 'spotImport.media.moveUp',
  moveMediaDown: 'spotImport.media.moveDown',
  moveMediaToTop: 'spotImport.media.moveToTop',
  uploadToGallery: 'spotImport.uploadToGallery',
  setMediaUrlTemplate: 'spotImport.setMediaUrlTemplate',
  markSpotActive: 'spotImport.spot.markActive',
  showOnMap: 'spotImport.map.show',
  pickLocation: 'spotImport.map.pickLocation',
  newTopicDefinition: 'spotImport.topics.newDefinitionFromDocument',
  openWalkthrough: 'spotImport.walkthrough.open',
  openExample: 'spotImport.walkthrough.openExample',
  importExample: 'spotImport.walkthrough.importExample',
} as const;

/** VS Code's own commands that the code runs or package.json's links name (not contributed by us; scripts/checkCommands.js allows only these). */
export const BUILT_IN_COMMAND = {
  setContext: 'setContext',
  open: 'vscode.open',
  openSettings: 'workbench.action.openSettings',
  showProblems: 'workbench.actions.view.problems',
  saveAs: 'workbench.action.files.saveAs',
  openWalkthrough: 'workbench.action.openWalkthrough',
  /** Opens the Workspace Trust editor: the way out of Restricted Mode (platform/workspaceTrust.ts). */
  manageWorkspaceTrust: 'workbench.trust.manage',
  /** Made by VS Code for the Galleries view (views/viewIds.ts): `${view id}.focus`. */
  focusGalleriesView: 'spotImport.galleries.focus',
} as const;
