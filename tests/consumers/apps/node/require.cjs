// Node, require (Node 20.19 and later load the package's ES modules synchronously).
const { loadModel, rowView, cosine } = require('embeddings-and-position');

loadModel().then((model) => {
  const id = (text) => model.tokenId(text);
  console.log(JSON.stringify({
    cosine: cosine(rowView(model.wte, id('·girl')), rowView(model.wte, id('·boy'))),
    nearest: model.nearest('·girl', 3).map(({ text }) => text),
  }));
});
