// Rows of tables as a source of spots (issue 21). read/: tables read as rows of values with the
// position of every cell.
export * from './read';
