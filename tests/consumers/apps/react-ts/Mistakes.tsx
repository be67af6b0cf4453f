// What tsc must refuse: each line below is an error, or tsc fails on its directive.
import 'embeddings-and-position/widgets';

export const mistakes = [
  // @ts-expect-error: the element has no such attribute
  <ew-nearest-words wrod="·girl" />,
  // @ts-expect-error: a model is a Model, not a folder
  <ew-trace-table model="model/" />,
  // @ts-expect-error: ew-token's detail has an id, no word
  <ew-nearest-words onew-token={(event) => event.detail.word} />,
];
