// <ew-word-analogy>: a − b + c, the tokens closest to it by cosine, with the
// three inputs left out (model.nearest's `exclude`: returning the inputs
// themselves is the classic bug of word-vector demos).
//
//   <ew-word-analogy a="·king" b="·man" c="·woman"></ew-word-analogy>
//
// <ew-word-cosine> is word-cosine.js's (embeddings-and-position/widgets/word-cosine).
// Deprecated: this entry re-exports it, and so defines it too, for one
// version (docs/embedding.md).
import { rowView } from '../index.js';
import { TypedWords } from './parts/typed-words.js';
import { neighbourList } from './parts/neighbours.js';
import { defineWidget } from './parts/definitions.js';

/** @deprecated Import WordCosine from embeddings-and-position/widgets/word-cosine; this re-export goes in the next version. */
export { WordCosine } from './word-cosine.js';

export class WordAnalogy extends TypedWords {
  get boxSpecs() { return [['a', 'a', '·king'], ['minus b', 'b', '·man'], ['plus c', 'c', '·woman']]; }
  get buttonText() { return 'Find'; }

  clearWords() { this.answer = undefined; }

  /** a − b + c and its 5 closest tokens other than a, b and c. */
  showWords(ids, [ta, tb, tc]) {
    const model = this.model;
    const [a, b, c] = ids.map((id) => rowView(model.wte, id));
    const query = new Float32Array(model.width);
    for (let k = 0; k < model.width; k++) query[k] = a[k] - b[k] + c[k];
    /** The closest tokens, for the page and its tests. */
    this.answer = model.nearest(query, 5, { exclude: ids });
    this.summary.textContent = `${ta} − ${tb} + ${tc} is closest to ${this.answer[0].text} (the three words themselves left out):`;
    this.results.replaceChildren(neighbourList(this.answer, { label: `Closest tokens to ${ta} − ${tb} + ${tc}` }));
  }
}

defineWidget('ew-word-analogy', WordAnalogy);
