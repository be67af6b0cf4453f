// The chapter page's formulas typeset when the page is built, not in the
// reader's browser: KaTeX (a dev dependency) renders every formula of
// web/page/index.html (each element of class "tex" with its TeX in
// data-tex) into web/dist/formulas.js, a module of their HTML, which the
// page puts in place (web/page/formulas.js). The page then never fetches
// or runs KaTeX's script (0.28 MB, and a third of a second of a phone's
// main thread to typeset them, docs/page.md); it keeps KaTeX's
// stylesheet and fonts, so the formulas look as they did.
//
// The page's Content-Security-Policy refuses style attributes in markup
// (style-src 'self'), and KaTeX's HTML sets its sizes in them: each is
// written as data-style instead, which the page applies through the CSSOM
// (element.style.cssText), as katex.render() did.
//
//   node tools/page/typeset-formulas.mjs    (tools/page/bundle.mjs runs it too)
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const pageFile = resolve(root, 'web/page/index.html');
export const formulasModule = resolve(root, 'web/dist/formulas.js');

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** An attribute's text as the browser reads it (the entities HTML allows in one). */
export function attributeText(raw) {
  return raw.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name) => {
    if (name[0] === '#') return String.fromCodePoint(name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The key a formula's HTML has in web/dist/formulas.js: how it is set (display or inline) and its TeX. */
export function formulaKey(tex, display) {
  return `${display ? 'display' : 'inline'} ${tex}`;
}

/** Every formula of the page's HTML: [{ tex, display }], in the page's order, each once. */
export function formulasOf(html) {
  const found = new Map();
  for (const [element] of html.matchAll(/<[a-z]+\b[^>]*\bdata-tex="[^"]*"[^>]*>/g)) {
    const classes = /\bclass="([^"]*)"/.exec(element)?.[1].split(/\s+/) ?? [];
    if (!classes.includes('tex')) continue;
    const tex = attributeText(/\bdata-tex="([^"]*)"/.exec(element)[1]);
    const display = classes.includes('display');
    found.set(formulaKey(tex, display), { tex, display });
  }
  return [...found.values()];
}

/**
 * KaTeX's HTML for one formula (and its MathML, for screen readers), as
 * katex.render() builds it, with each style attribute written as
 * data-style. An error in the TeX is a build error, naming the formula.
 */
export function typeset(tex, display) {
  let html;
  try {
    html = katex.renderToString(tex, { displayMode: display, throwOnError: true, output: 'htmlAndMathml' });
  } catch (error) {
    throw new Error(`web/page/index.html: the formula ${JSON.stringify(tex)} could not be typeset: ${error.message}`);
  }
  return html.replace(/ style="/g, ' data-style="');
}

/** The text of web/dist/formulas.js for the page as it is now. */
export async function formulasSource() {
  const formulas = formulasOf(await readFile(pageFile, 'utf8'));
  return [
    `// Built by tools/page/typeset-formulas.mjs from web/page/index.html's formulas, typeset by KaTeX ${katex.version}:`,
    '// each formula\'s HTML by how it is set and its TeX (web/page/formulas.js puts them in place).',
    'export default {',
    ...formulas.map(({ tex, display }) => `  ${JSON.stringify(formulaKey(tex, display))}: ${JSON.stringify(typeset(tex, display))},`),
    '};', ''].join('\n');
}

/** Writes web/dist/formulas.js (unless `write` is false); returns its text. */
export async function writeFormulas({ write = true } = {}) {
  const text = await formulasSource();
  if (write) await writeFile(formulasModule, text);
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await writeFormulas();
  console.log(`web/dist/formulas.js: ${Buffer.byteLength(text)} bytes, ${text.split('\n').length - 5} formulas`);
}
