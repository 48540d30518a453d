// --format → the reporter that writes it.
import { paint, useColor } from './color';
import { githubReporter } from './github';
import { jsonLinesReporter } from './jsonLines';
import { junitReporter } from './junit';
import type { LineWriter } from './lineWriter';
import type { CommandName } from './records';
import type { OutputFormat, Reporter } from './reporter';
import { sarifReporter } from './sarif';
import { textReporter } from './text';

export interface ReporterOptions {
  version: string;
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function createReporter(format: OutputFormat, command: CommandName, out: LineWriter, options: ReporterOptions): Reporter {
  switch (format) {
    case 'text':
      return textReporter(out, paint(useColor(options.stdout, options.env)));
    case 'json':
      return jsonLinesReporter(out, command);
    case 'sarif':
      return sarifReporter(out, command, options);
    case 'github':
      return githubReporter(out);
    case 'junit':
      return junitReporter(out, command);
  }
}
