// A problem found in a spot document, located by a JSON pointer (RFC 6901) so that the editor,
// the sandbox and the command line can all place it.
export interface Problem {
  pointer: string;
  message: string;
}

export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}
