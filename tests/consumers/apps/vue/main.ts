// The widgets are defined before Vue renders them, so that Vue sets `model` as a property.
import 'embeddings-and-position/widgets';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
