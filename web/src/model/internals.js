// What a Model keeps off the object, shared by the Model class and the
// widgets' private accessors (for-widgets.js).

// A model's hosts and tables, kept off the object (rather than in private
// fields) so that DevTools' preview of a model shows its sizes, not its internals.
export const internalsOf = new WeakMap();

/** A model's tokenizer, once it is known to be alive and to have one. */
export function textHostOf(model) {
  const internals = internalsOf.get(model);
  internals.tables.checkAlive();
  if (!internals.tokenizer) throw new Error('This model was loaded without a tokenizer.json, so it cannot read text');
  internals.tokenizer.checkAlive();
  return internals.tokenizer;
}
