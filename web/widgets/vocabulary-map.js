// embeddings-and-position/widgets/vocabulary-map: defines <ew-vocabulary-map>,
// whose element and internals are in vocabulary-map/ (element.js says what it
// shows and how the reader moves it).
import { VocabularyMap } from './vocabulary-map/element.js';
import { defineWidget } from './parts/definitions.js';

export { VocabularyMap };

defineWidget('ew-vocabulary-map', VocabularyMap);
