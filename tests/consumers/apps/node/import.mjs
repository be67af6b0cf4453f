// Node, import: the package's answer and its kernels.
import { loadModel, rowView, cosine, backend, ready } from 'embeddings-and-position';

await ready;
const model = await loadModel();
const id = (text) => model.tokenId(text);
console.log(JSON.stringify({
  backend,
  cosine: cosine(rowView(model.wte, id('·girl')), rowView(model.wte, id('·boy'))),
  nearest: model.nearest('·girl', 3).map(({ text }) => text),
}));
