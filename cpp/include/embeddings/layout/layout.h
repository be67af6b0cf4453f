// Two-dimensional maps of a table's rows: PCA and a UMAP-method layout.
// This header gathers the parts; each is declared in its own:
// arithmetic.h (the dot product, exp, log, pow, random numbers), table.h
// (float32 and 16-bit tables, the range check), eigen.h, pca.h, knn.h
// (exact and NN-descent), umap.h, judge.h (neighbours kept, recall).
//
// Determinism: every result here is a function of its inputs (and, for UMAP,
// the seed) down to the last bit, the same natively and in WebAssembly. That
// is why this file does its own arithmetic instead of calling the SIMD
// kernels or the C library:
// - dot products use one fixed grouping of the sums (layout_dot), written
//   with SSE or WebAssembly SIMD where available and plain C++ elsewhere,
//   always the same additions in the same order; 16-bit rows are widened
//   exactly into the same grouping;
// - no fused multiply-adds (the sources are compiled with -ffp-contract=off);
// - exp, log and pow are this file's own (layout_exp etc.), built from
//   +, -, *, / and exact power-of-two scaling, because libm's differ in the
//   last bit between glibc and the WebAssembly runtime, and UMAP's
//   stochastic gradient descent turns a last-bit difference into a
//   different picture;
// - the random numbers are a seeded SplitMix64, ties are broken by index;
// - work split into chunks (PCA passes, NN-descent) adds the chunks' sums
//   in chunk order, and a neighbour list is the best k of what was tried,
//   whatever the order: slices and threads do not change a bit.
// The `*_reference` functions are double-precision oracles for the tests.
#pragma once

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/eigen.h"
#include "embeddings/layout/judge.h"
#include "embeddings/layout/knn.h"
#include "embeddings/layout/pca.h"
#include "embeddings/layout/table.h"
#include "embeddings/layout/umap.h"
