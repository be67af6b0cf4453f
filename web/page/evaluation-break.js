// A turn of the event loop in the middle of the bundle's evaluation, right
// after start.js has asked for the model. The bundle's evaluation took
// 70–155 ms on the phone profile, one task; it now goes in two, the first
// ending once the model's load has started (under 25 ms at 4×), and input
// and rendering get a turn between them. page.js imports it second. It is
// the page's alone: the package's modules never wait at their top level
// (web/src/kernels.js says why).
import { yieldToMain } from '../src/event-loop.js';

await yieldToMain();
