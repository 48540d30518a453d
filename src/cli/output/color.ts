// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or the
// terminal says it cannot show it.
export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
}

export function useColor(stream: NodeJS.WritableStream & { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!stream.isTTY && !env.NO_COLOR && env.TERM !== 'dumb';
}

const wrap = (enabled: boolean, open: number, close: number) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);

export function paint(enabled: boolean): Paint {
  return { red: wrap(enabled, 31, 39), green: wrap(enabled, 32, 39), yellow: wrap(enabled, 33, 39), dim: wrap(enabled, 2, 22) };
}
