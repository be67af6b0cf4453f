// A turn of the event loop in the middle of the bundle's evaluation, right
// after start.js has asked for the model. The bundle's evaluation took
// 70–155 ms on the phone profile, one task, and the model's first steps
// (its instances' start-ups) waited behind it; now they go first, and the
// rest (the widgets' modules, the page's) follows in a task of its own.
// page.js imports it second. It is the page's alone: the package's modules
// never wait at their top level (web/src/kernels.js says why).
import { yieldToMain } from '../src/event-loop.js';

await yieldToMain();
