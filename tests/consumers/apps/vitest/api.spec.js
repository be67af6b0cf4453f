// Vitest's node environment: the API, and the widgets' modules imported
// where there is no DOM (nothing defined, nothing thrown).
import { test, expect } from 'vitest';
import { loadModel, rowView, cosine } from 'embeddings-and-position';
import { TraceTable } from 'embeddings-and-position/widgets';

test('the API answers in Node', async () => {
  const model = await loadModel();
  const id = (text) => model.tokenId(text);
  expect(cosine(rowView(model.wte, id('·girl')), rowView(model.wte, id('·boy')))).toBeCloseTo(0.73, 2);
  expect(model.nearest('·girl', 1)[0].text).toBe('·boy');
  model.dispose();
});

test('the widgets import with no DOM', () => {
  expect(typeof TraceTable).toBe('function');
  expect(globalThis.customElements).toBeUndefined();
});
