// <ew-word-cosine>: the cosine of any two words the reader types.
//
//   <ew-word-cosine a="·girl" b="·boy"></ew-word-cosine>
import { rowView, cosine } from '../index.js';
import { TypedWords } from './parts/typed-words.js';
import { num } from './parts/format.js';
import { defineWidget } from './parts/definitions.js';

export class WordCosine extends TypedWords {
  get boxSpecs() { return [['first word', 'a', '·girl'], ['second word', 'b', '·boy']]; }
  get buttonText() { return 'Compare'; }

  clearWords() { this.score = undefined; }

  showWords(ids, [ta, tb]) {
    /** The cosine shown, for the page and its tests. */
    this.score = cosine(rowView(this.model.wte, ids[0]), rowView(this.model.wte, ids[1]));
    this.summary.textContent = `cos(${ta}, ${tb}) = ${num(this.score, 2)}`;
  }
}

defineWidget('ew-word-cosine', WordCosine);
