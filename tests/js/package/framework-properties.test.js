// Every attribute the framework typings name (web/widgets/parts/frameworks.d.ts,
// read with TypeScript's parser) set the way React 19, Vue and Svelte set
// it: as a property wherever the element has one by that name, else as an
// attribute. On a defined, connected element that shows a model (jsdom:
// the DOM the frameworks' own tests run in), nothing may throw and each
// value must reach the attribute (a getter alone made React throw and Vue
// drop the value; a field of the same name took it for state).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { JSDOM } from 'jsdom';
import { makeModel } from '../helpers/fixtures.js';

/** tag → the attribute names its entry of WidgetElements gives (ModelAttributes's included). */
function typedAttributes() {
  const path = new URL('../../../web/widgets/parts/frameworks.d.ts', import.meta.url);
  const source = ts.createSourceFile('frameworks.d.ts', readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
  const interfaces = Object.fromEntries(source.statements.filter(ts.isInterfaceDeclaration).map((node) => [node.name.text, node]));
  const names = (members) => members.filter(ts.isPropertySignature).map((member) => member.name.text);
  const namesOf = (type) => (ts.isIntersectionTypeNode(type) ? type.types.flatMap(namesOf)
    : ts.isTypeReferenceNode(type) ? names(interfaces[type.typeName.text].members) : names(type.members));
  return Object.fromEntries(interfaces.WidgetElements.members.map((entry) => {
    const attributes = entry.type.members.find((member) => member.name.text === 'attributes');
    return [entry.name.text, namesOf(attributes.type)];
  }));
}

// A value for each attribute, as an author's template writes it (true: a boolean attribute).
const values = {
  src: 'model/', weights: 'model/model.safetensors', config: 'model/config.json', tokenizer: 'model/tokenizer.json', 'external-model': true,
  token: 'Lily', word: '·boy', k: 3, pairs: '·girl ·boy', for: 'elsewhere', a: '1 2', b: '3 4', c: '·girl', place: 2, other: 3,
  waves: true, text: 'Max saw Lily', compare: 'Lily saw Max', pair: '·girl', snapshots: 'missing/index.json', curve: 'missing.json',
  keep: 2, method: 'pca', editor: 'elsewhere',
};
/** Whether a class above `element` has its own setter for `name` (one that does more than set the attribute). */
function hasOwnSetter(element, name) {
  for (let p = Object.getPrototypeOf(element); p && p !== HTMLElement.prototype; p = Object.getPrototypeOf(p)) {
    const setter = Object.getOwnPropertyDescriptor(p, name)?.set;
    if (setter) return setter.name !== 'set';
  }
  return false;
}

// Properties only, no attributes: given as objects.
const propertiesOnly = new Set(['model', 'lines']);

let dom;
before(() => {
  dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { url: 'http://localhost/', pretendToBeVisual: true });
  // The window's names as globals, as Vitest's jsdom environment gives them (its events, not Node's, which jsdom refuses).
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (!(key in globalThis) || ['Event', 'CustomEvent', 'EventTarget'].includes(key)) {
      Object.defineProperty(globalThis, key, { configurable: true, get: () => dom.window[key] });
    }
  }
});
after(() => dom.window.close());

test('every typed attribute, set as a framework sets it on a defined element showing a model, reaches the attribute', async () => {
  const fixture = makeModel();
  const { loadModel } = await import('../../../web/index.js');
  await import('../../../web/widgets/index.js');
  const model = await loadModel({ weights: fixture.weights, config: fixture.config, tokenizer: fixture.tokenizer });
  const attributes = typedAttributes();
  assert.equal(Object.keys(attributes).length, 13, 'every element is typed');
  for (const [tag, names] of Object.entries(attributes)) {
    const element = document.createElement(tag);
    assert.ok(customElements.get(tag) && element instanceof customElements.get(tag), `${tag} is defined`);
    if (tag === 'ew-training-slider') element.setAttribute('snapshots', 'missing/index.json');  // no snapshots to load here
    document.body.append(element);
    if ('model' in element) element.model = model;
    await element.updated;
    for (const name of names.filter((n) => !propertiesOnly.has(n))) {
      assert.ok(name in values, `a value for ${tag}'s ${name}`);
      const value = values[name];
      const text = value === true ? '' : String(value);
      assert.doesNotThrow(() => { if (name in element) element[name] = value; else element.setAttribute(name, text); }, `${tag}: ${name}`);
      // A property of the element's own (text, word, token) may take the value itself: then it reads it back.
      const taken = element.getAttribute(name) === text || (hasOwnSetter(element, name) && String(element[name]) === text);
      assert.ok(taken, `${tag}'s ${name} took ${text}: attribute ${element.getAttribute(name)}, property ${element[name]}`);
    }
    await element.updated;
    element.remove();
  }
  model.dispose();
});
