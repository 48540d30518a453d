// A cell naming a photo by its address on a server (KoBoToolbox's *_URL columns, iNaturalist's
// image_url) rather than a file: photos are read from files, so such a cell is told apart.

const WEB_ADDRESS = /^[a-z][a-z0-9+.-]*:\/\//i;

/** "https://…", "ftp://…": a scheme and "//". */
export function isWebAddress(text: string): boolean {
  return WEB_ADDRESS.test(text.trim());
}
