// The shapefile library's Node build takes TextDecoder from the text-encoding polyfill (written
// before Node had one); Node's own decodes every encoding a .cpg or a DBF names.
exports.TextDecoder = TextDecoder;
