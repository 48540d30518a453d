// The Galleries view's id (package.json contributes.views), in a file of its own: the view's parts
// and the commands name it without importing the view's interface and, through it, each other.
export const GALLERIES_VIEW_ID = 'spotImport.galleries';
