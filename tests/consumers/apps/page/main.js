// An author's page script, as each bundler's app has it: the API by package
// name, every widget by package name, a model handed to a widget by
// script, and a map laid out in the package's Worker.
import { loadModel, rowView, cosine } from 'embeddings-and-position';
import 'embeddings-and-position/widgets';

async function main() {
  const answer = document.querySelector('#answer');
  try {
    const model = await loadModel();
    answer.textContent = String(cosine(rowView(model.wte, model.tokenId('·girl')), rowView(model.wte, model.tokenId('·boy'))));
    document.querySelector('ew-trace-table').model = model;
    const map = await model.map();
    answer.dataset.map = `${map.rows} × ${map.cols}`;
  } catch (error) {
    answer.dataset.error = error.message;
  }
}

main();
