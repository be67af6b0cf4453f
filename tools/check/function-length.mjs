#!/usr/bin/env node
// Lists the C++ and JavaScript functions longer than a limit (80 lines by
// default, from the first line of the signature to the closing brace) in
// the given files and folders, and fails if there are any. JavaScript
// (.js, .mjs) is read by TypeScript's parser, a dev dependency: every
// function, method, accessor and arrow function with a body counts, each
// on its own (an inner function's lines count in its outer one's too);
// folders named dist or node_modules are skipped. C++ is read as clang-format
// leaves it: braces are counted outside comments, strings, character
// literals and preprocessor lines; a brace opens a function's body when it
// follows a parenthesis at namespace or class scope, after a space (a braced
// initializer is written against what it initializes: b_{0}). A lambda is
// part of the function it is in. EMSCRIPTEN_BINDINGS blocks, declarative,
// are not counted.
//   node tools/check/function-length.mjs [--limit N] [--list] PATH...
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
let limit = 80;
let list = false;
const paths = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--limit') limit = Number(args[++i]);
  else if (args[i] === '--list') list = true;
  else paths.push(args[i]);
}

const isJavaScript = (path) => /\.m?js$/.test(path);

function sources(path) {
  if (statSync(path).isDirectory()) {
    if (['dist', 'node_modules'].includes(basename(path))) return [];
    return readdirSync(path).sort().flatMap((name) => sources(join(path, name)));
  }
  return /\.(cpp|cc|h|hpp)$/.test(path) || isJavaScript(path) ? [path] : [];
}

/** A JavaScript function's name: its own, or that of the variable, property or class member it is. */
function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

function longJavaScriptFunctions(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.end).line + 1;
      const lines = last - first + 1;
      if (lines > limit || list) found.push({ file, line: first, lines, name: nameOf(node, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// The code with comments, string and character literals blanked (newlines
// kept, so that offsets keep their lines) and preprocessor lines dropped.
function code(text) {
  let out = '';
  let i = 0;
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const rest = text.slice(i, i + 3);
    if (rest.startsWith('//')) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (/^R"/.test(rest) && !/\w/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i);
      const delimiter = text.slice(i + 2, open);
      const close = text.indexOf(`)${delimiter}"`, open);
      const stop = close < 0 ? text.length : close + delimiter.length + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (text[i] === '"' || (text[i] === "'" && !/[0-9a-fA-F]/.test(text[i - 1] ?? ''))) {
      const quote = text[i];
      let j = i + 1;
      while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += blank(text.slice(i, j + 1));
      i = j + 1;
    } else if (text[i] === '#' && /(^|\n)[ \t]*$/.test(out.slice(-200))) {
      let j = i;
      while (j < text.length && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += blank(text.slice(i, j));
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

const lineOf = (text, offset) => text.slice(0, offset).split('\n').length;

function longFunctions(file) {
  if (isJavaScript(file)) return longJavaScriptFunctions(file);
  const text = code(readFileSync(file, 'utf8'));
  const found = [];
  const scopes = [];  // 'scope' (namespace, class, enum, initializer) or 'function'
  let statementStart = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === ';' && !scopes.some((s) => s.kind === 'function')) statementStart = i + 1;
    if (c === '{') {
      const head = text.slice(statementStart, i);
      let kind = 'scope';
      if (scopes.some((s) => s.kind === 'function')) kind = 'block';
      // clang-format writes a braced initializer against what it
      // initializes (b_{0}, Foo{1, 2}) and a body after a space.
      else if (!/\s/.test(text[i - 1] ?? ' ')) kind = 'init';
      else if (/\bEMSCRIPTEN_BINDINGS\s*\(/.test(head)) kind = 'declarative';
      else if (/\b(namespace|class|struct|union|enum)\b[^()]*$/.test(head.replace(/\s+/g, ' '))) kind = 'scope';
      else if (/\)[^()=]*$/.test(head) && !/=\s*$/.test(head)) kind = 'function';
      scopes.push({ kind, start: i, head });
      if (kind !== 'block' && kind !== 'init') statementStart = i + 1;
    } else if (c === '}') {
      const scope = scopes.pop();
      if (scope?.kind === 'function' && !scopes.some((s) => s.kind === 'function')) {
        const headStart = scope.start - scope.head.length + (scope.head.length - scope.head.trimStart().length);
        const first = lineOf(text, headStart), last = lineOf(text, i);
        const lines = last - first + 1;
        const name = scope.head.replace(/\s+/g, ' ').trim().replace(/\(.*$/, '').split(' ').pop();
        if (lines > limit || list) found.push({ file, line: first, lines, name });
      }
      if (scope?.kind !== 'init' && !scopes.some((s) => s.kind === 'function')) statementStart = i + 1;
    }
  }
  return found;
}

const files = paths.flatMap(sources);
const all = files.flatMap(longFunctions);
for (const f of all) console.log(`${f.file}:${f.line}: ${f.name}: ${f.lines} lines`);
const over = all.filter((f) => f.lines > limit);
if (over.length > 0) {
  console.error(`${over.length} function(s) over ${limit} lines`);
  process.exit(1);
}
const javaScript = files.filter(isJavaScript).length;
if (!list) console.log(`function length: none over ${limit} lines in ${files.length - javaScript} C++ and ${javaScript} JavaScript files`);
