// What each map is (mapDetails), kept off the Matrix: for the maps
// model.map() made (map.js), and for those alignMap() made of them (align.js).
const details = new WeakMap();

/**
 * What a map is: { method, varianceShare, solver, passes } for PCA (each
 * axis's share of the variance; 'covariance' or 'krylov', and the Krylov
 * method's passes), { method, neighbours, minDist, epochs, seed } for UMAP;
 * undefined for a Matrix that model.map() did not make.
 */
export function mapDetails(map) {
  return details.get(map);
}

/** Says what `map` is (a frozen object, as mapDetails gives it). */
export function recordDetails(map, what) {
  details.set(map, what);
}
