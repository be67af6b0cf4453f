// What umap.cpp (the descent) and umap_repulsion.cpp (its negative
// samples) share.
#pragma once

namespace embeddings::layout {

// umap-learn clips each gradient component to [-4, 4].
inline float clip(float value) { return value > 4.0f ? 4.0f : (value < -4.0f ? -4.0f : value); }

}  // namespace embeddings::layout
