#!/usr/bin/env node
// Fails on a block comment that opens another one inside it: in JavaScript
// the first `*/` closes both, so the code between them is silently a comment
// (a merge once left a stray `/**` above a `let`, and the page threw "is not
// defined" only when it was printed). C++ compilers warn of it; JavaScript
// parsers do not. Read with TypeScript's scanner, so that strings, template
// literals and regular expressions holding `/*` are not comments.
//   node tools/check/comments.mjs PATH...
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

function modules(path) {
  if (statSync(path).isDirectory()) {
    if (['dist', 'node_modules'].includes(basename(path))) return [];
    return readdirSync(path).sort().flatMap((name) => modules(join(path, name)));
  }
  return /\.m?js$/.test(path) ? [path] : [];
}

// Each block comment of `text` that holds another opening, as { line, text }.
function nestedComments(text) {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /* skipTrivia */ false, ts.LanguageVariant.Standard, text);
  const found = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    // A `/` where a value may start opens a regular expression, not a division.
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !endsValue(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.CloseBraceToken && previous === ts.SyntaxKind.TemplateHead) {
      kind = scanner.reScanTemplateToken(false);
    }
    if (kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      const comment = scanner.getTokenText();
      if (comment.slice(2, -2).includes('/*')) {
        found.push({ line: text.slice(0, scanner.getTokenPos()).split('\n').length, text: comment.split('\n')[0] });
      }
    }
    if (!isTrivia(kind)) previous = kind;
  }
  return found;
}

function isTrivia(kind) {
  return kind >= ts.SyntaxKind.FirstTriviaToken && kind <= ts.SyntaxKind.LastTriviaToken;
}

function endsValue(kind) {
  return kind === ts.SyntaxKind.Identifier || kind === ts.SyntaxKind.NumericLiteral || kind === ts.SyntaxKind.StringLiteral
    || kind === ts.SyntaxKind.CloseParenToken || kind === ts.SyntaxKind.CloseBracketToken || kind === ts.SyntaxKind.CloseBraceToken
    || kind === ts.SyntaxKind.ThisKeyword || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral || kind === ts.SyntaxKind.TemplateTail
    || kind === ts.SyntaxKind.RegularExpressionLiteral;
}

const paths = process.argv.slice(2);
const problems = paths.flatMap(modules).flatMap((path) =>
  nestedComments(readFileSync(path, 'utf8')).map((comment) => ({ path, ...comment })));
for (const { path, line, text } of problems) {
  console.error(`${path}:${line}: a comment opens another inside it (${text.trim()} …): the code up to its close is a comment`);
}
if (problems.length) process.exit(1);
console.log(`No block comment holds another in the JavaScript of ${paths.join(' ')}.`);
