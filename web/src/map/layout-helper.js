// A helper thread of a map in Node (layout-threads.js): started by
// instance.js (through #platform) as a worker thread, it runs the tasks of
// the rounds it is woken for.
import { parentPort } from 'node:worker_threads';

import { serveAsHelper } from './layout-threads.js';

parentPort.once('message', (message) => serveAsHelper(message.helper, (reply) => parentPort.postMessage(reply)));
