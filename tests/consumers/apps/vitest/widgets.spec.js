// @vitest-environment jsdom
// jsdom has no canvas: the widgets show their numbers and words, and one
// that draws on a canvas says in one line that its picture needs one; a
// strip of the trace is an image, which needs none. No canvas mock.
import { test, expect } from 'vitest';
import 'embeddings-and-position/widgets';

test('a widget\'s text, under jsdom', async () => {
  document.body.innerHTML = `
    <ew-trace-table text="Lily saw Max"></ew-trace-table>
    <ew-nearest-words word="·girl" k="3"></ew-nearest-words>
    <ew-dot-product a="1 2 3" b="4 0 -1"></ew-dot-product>
    <ew-embedding-table token="Lily"></ew-embedding-table>`;
  const [trace, nearest, dot, table] = document.body.children;
  await Promise.all([trace.updated, nearest.updated, table.updated]);
  expect(trace.dataset.state).toBe('ready');
  expect([...trace.querySelectorAll('.ew-token')].map((token) => token.textContent)).toEqual(['Lily', '·saw', '·Max']);
  expect(trace.querySelector('.ew-strip').src).toMatch(/^data:image\/bmp;base64,/);
  expect(trace.textContent).not.toContain('The picture needs a canvas');
  expect(table.textContent).toContain('The picture needs a canvas');
  expect([...nearest.querySelectorAll('.ew-neighbour .ew-token')].map((token) => token.textContent)).toEqual(['·boy', '·child', '·lady']);
  await expect.poll(() => dot.result?.sum).toBe(1);
  expect(dot.querySelector('.ew-dot-sum').textContent).toBe('1');
});
