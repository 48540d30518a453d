// The tables' editor features as registerTables.ts plugs them in behind its stand-ins: built from
// dist/features.js when the first table or mapping is opened (or a command needs them).
import type { TopicCatalogSource } from '../documents/spotDiagnostics';
import type { DisposableStore } from '../platform/lifecycle';
import type { Logger } from '../platform/services';
import type { TableParts } from './registerTables';
import { RowPreviews } from './rowPreviews';
import { SheetViews } from './sheetViews';
import { TableChecks } from './tableChecks';
import { TableCodeActions } from './tableCodeActions';
import { TableCodeLens } from './tableCodeLens';
import { TableHovers } from './tableHovers';

/** Builds the parts into `disposables` (disposed if the build throws: buildOnFirstNeed): the checks start on the tables and mappings already open. */
export function buildTables(disposables: DisposableStore, log: Logger, topics: TopicCatalogSource): TableParts {
  const checks = disposables.add(new TableChecks(log, topics));
  return {
    checks,
    previews: disposables.add(new RowPreviews()),
    sheets: disposables.add(new SheetViews(log)),
    codeLens: disposables.add(new TableCodeLens(checks)),
    hovers: new TableHovers(checks),
    codeActions: new TableCodeActions(checks),
  };
}
