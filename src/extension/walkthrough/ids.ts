// The walkthrough's id as package.json contributes it (contributes.walkthroughs[0].id). VS Code
// names it "<publisher>.<name>#<id>" (workbench.action.openWalkthrough takes that form).
const WALKTHROUGH_ID = 'spotImport.firstRun';

export function walkthroughFullId(extensionId: string): string {
  return `${extensionId}#${WALKTHROUGH_ID}`;
}
