// The vocabulary map: model.map() and what it gives. A map's request goes
// down this list, each module importing only those below it:
//   map.js             mapRows (model.map): checks, lays out, records
//   in-worker.js       the page's side of the map's Worker
//   in-slices.js       a map on this thread, in slices between turns of the event loop
//   options.js         the table and options checked; the job they make
//   instance.js        the layout module compiled, and this thread's instance of it
//   layout-run.js      a map job in an instance (shared with the Worker)
//   layout-threads.js  several threads for one map (shared with the Worker)
//   align.js           alignMap: one map moved onto another
//   details.js         what each map is (mapDetails)
// Started apart: map-worker.js, the Worker's script (built into
// web/dist/map-worker.js), and layout-helper.js, a helper thread in Node.
export { mapRows } from './map.js';
export { mapDetails } from './details.js';
export { alignMap } from './align.js';
