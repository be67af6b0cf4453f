// The chapter's own definitions, as its Code parts write them. A console
// prints a function as its source, so these are spelled exactly so, and
// this file is served as written: tools/page/bundle.mjs leaves it out of the
// minified bundle, which would respell them.
export const dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);
export const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
