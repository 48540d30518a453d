// The baseline for `npm run bench:activation`: nothing to load, nothing to do.
module.exports.activate = function activate() {};
module.exports.deactivate = function deactivate() {};
