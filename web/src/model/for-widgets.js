// For the widgets (web/index.js does not export these): what they ask of a
// model without reading its whole vocabulary.
import { internalsOf, textHostOf } from './internals.js';
import { unproxied } from '../proxies.js';
import { POSITION, TOKEN } from './tables.js';

/**
 * For the widgets (web/index.js does not export it): how many ids the
 * model's tokenizer has (its table may have more rows: padding), without
 * reading the vocabulary.
 */
export function tokenizerSize(model) {
  model = unproxied(model);
  return internalsOf.has(model) ? textHostOf(model).vocabSize : model.vocabulary().length;
}

/**
 * For the widgets: the id of a single token given as shown or raw, as
 * tokenId() finds it, or -1 where the text is no single token. A miss costs
 * one lookup: no pieces are worked out for a message nobody reads.
 */
export function findTokenId(model, text) {
  model = unproxied(model);
  if (!internalsOf.has(model)) {
    try {
      return model.tokenId(text);
    } catch {
      return -1;
    }
  }
  const tokenizer = textHostOf(model);
  return typeof text === 'string' ? tokenizer.id(text) : -1;
}

/**
 * For the widgets: the colour scale the module read of a model's token table
 * (or 'wpe', its position table) as the load finished (robust_limit, the
 * number robustLimit() of widgets/parts/color.js gives); undefined for a
 * model that loadModel() did not give.
 */
export function tableRobustLimit(model, table = 'wte') {
  model = unproxied(model);
  if (!internalsOf.has(model)) return undefined;
  const { tables } = internalsOf.get(model);
  tables.checkAlive();
  return tables.robustLimits[table === 'wpe' ? POSITION : TOKEN];
}
