// How the page writes numbers (web/widgets/parts/format.js): plain functions, no browser needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { num, int, share, quote, consoleFormat } from '../../../web/widgets/parts/format.js';
import { Matrix } from '../../../web/index.js';

test('numbers as the chapter writes them', () => {
  assert.equal(num(0.00791), '0.008');
  assert.equal(num(-0.2094), '\u22120.209');
  assert.equal(num(-0.0001), '0.000');
  assert.equal(num(0.7412, 2), '0.74');
  assert.equal(num(NaN), 'NaN');
  assert.equal(int(524288), '524,288');
  assert.equal(quote("it's"), "'it\\'s'");
});

test('shares in words', () => {
  assert.equal(share(524288, 524288 * 2.5), 'about 2 in every 5');
  assert.equal(share(1, 3), 'about 1 in every 3');
  assert.equal(share(12, 100), 'about 1 in every 8');
  assert.equal(share(5, 100), 'about 5 in every 100');
  assert.equal(share(97, 100), 'about 97 in every 100');
  assert.equal(share(1, 1), 'all');
  assert.equal(share(0, 1), 'none');
});

test('values printed as a console prints them', () => {
  assert.equal(consoleFormat(1), '1');
  assert.equal(consoleFormat(undefined), 'undefined');
  assert.equal(consoleFormat(new Float32Array([0.5, -0.25])), 'Float32Array(2) [0.5, -0.25]');
  assert.match(consoleFormat(new Float32Array(128)), /^Float32Array\(128\) \[0, 0, 0, 0, 0, 0, … 122 more\]$/);
  const dot = (a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0);
  assert.equal(consoleFormat(dot), '(a, b) => a.reduce((sum, x, k) => sum + x * b[k], 0)');
  assert.match(consoleFormat(new Matrix(new Float32Array(6), 2, 3)), /^Matrix 2 × 3\n {2}0: \[0\.000, 0\.000, 0\.000\]/);
  assert.equal(consoleFormat(new RangeError('no')), 'Uncaught RangeError: no');
  assert.equal(consoleFormat([1, 'a']), "(2) [1, 'a']");
});
