// An author's TypeScript, compiled with --strict and without esnext's lib:
// the API, the widgets by package name, and their elements by tag.
import { loadModel, rowView, cosine, ready, locateFiles, type Model } from 'embeddings-and-position';
import 'embeddings-and-position/widgets';
import { sharedModel, type NearestWords } from 'embeddings-and-position/widgets';
import type { TrainingSlider } from 'embeddings-and-position/widgets/training-slider';
import type { WordPairs } from 'embeddings-and-position/widgets/word-pairs';
import { deferWidgetDefinitions } from 'embeddings-and-position/widgets/definitions';

deferWidgetDefinitions({ except: ['ew-nearest-words'] });
locateFiles((path) => `/static/${path}`);

export async function main(): Promise<number> {
  await ready;
  const model: Model = await loadModel();
  const nearest: NearestWords | null = document.querySelector('ew-nearest-words');
  if (nearest) nearest.word = '·boy';
  const trace = document.querySelector('ew-trace-table');
  if (trace) trace.model = sharedModel();
  const slider: TrainingSlider = document.createElement('ew-training-slider');
  const pairs: WordPairs | null = document.querySelector('ew-word-pairs');
  if (pairs) pairs.model = sharedModel();
  slider.word = '·cat';
  for (const row of model.wte) void row.length;
  model[Symbol.dispose]();
  return cosine(rowView(model.wte, 1), [...rowView(model.wte, 2)]) + (trace?.trace?.tokens.length ?? 0);
}
