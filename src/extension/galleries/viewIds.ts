// The Galleries view's names (package.json contributes.views, its document schemes and drag type),
// in a file of their own: activation registers the view under them without loading the view's
// code (galleriesViewShell.ts), and the view's parts and the commands name them without importing
// the view's interface and, through it, each other.
export const GALLERIES_VIEW_ID = 'spotImport.galleries';

/** The read-only gallery documents (galleryJsonDocuments.ts). */
export const GALLERY_SCHEME = 'spot-gallery';

/** The read-only media files (media/mediaFileSystem.ts). */
export const MEDIA_SCHEME = 'spot-media';

/** Files dragged from the Explorer (RFC 2483). */
export const URI_LIST = 'text/uri-list';

/** The view's own drag type (VS Code names it after the view id, in lower case). */
export const MEDIA_DRAG_TYPE = `application/vnd.code.tree.${GALLERIES_VIEW_ID.toLowerCase()}`;
