// The one require('vscode') of a bundle (see oneVscodeRequire in esbuild.js).
module.exports = require('vscode');
