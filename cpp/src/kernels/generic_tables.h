// Part of generic.h (which includes it at its end): the kernels over whole
// tables, written once over a backend's vector operations: the cosine matrix
// of a table's rows, a block of rows at a time, and the token-plus-position
// sum of a trace. Like generic.h, it includes nothing of its own.
#pragma once

#include "generic.h"

namespace embeddings::kernels {

template <class B>
void Kernels<B>::cosine_matrix_rows_of(const float* table, std::size_t rows, std::size_t cols,
                                       std::size_t row_begin, std::size_t row_end, float* scratch,
                                       float* out) {
  // cosine_scores' arithmetic, with every row's norm computed once per call
  // instead of once per query row; the pairs with a row to be scored in
  // double are put right afterwards, so the main loop has no branch.
  const bool any_in_double = row_factors(table, rows, cols, scratch);
  float dots[4];
  for (std::size_t i = row_begin; i < row_end; ++i) {
    const float* a = table + i * cols;
    float* line = out + (i - row_begin) * rows;
    if (scratch[i] < 0) {  // a row outside the safe range: cosine_scores scales it, as nearest() would
      cosine_scores_of(a, table, rows, cols, line);
      continue;
    }
    std::size_t j = 0;
    for (; j + 4 <= rows; j += 4) {
      const float* r = table + j * cols;
      dot_four_rows(a, r, r + cols, r + 2 * cols, r + 3 * cols, cols, dots);
      for (std::size_t t = 0; t < 4; ++t)
        line[j + t] = std::clamp(dots[t] * scratch[j + t] * scratch[i], -1.0f, 1.0f);
    }
    for (; j < rows; ++j) {
      float norm;
      dot_and_norm_row(a, table + j * cols, cols, dots[0], norm);
      line[j] = std::clamp(dots[0] * scratch[j] * scratch[i], -1.0f, 1.0f);
    }
  }
  if (!any_in_double) return;
  for (std::size_t i = row_begin; i < row_end; ++i) {
    if (scratch[i] < 0) continue;  // done above
    for (std::size_t j = 0; j < rows; ++j) {
      if (scratch[j] < 0) {
        out[(i - row_begin) * rows + j] =
            static_cast<float>(cosine_in_double(table + i * cols, table + j * cols, cols));
      }
    }
  }
}

template <class B>
void Kernels<B>::cosine_matrix_of(const float* table, std::size_t rows, std::size_t cols, float* scratch,
                                  float* out) {
  // Each pair once, written to both (i, j) and (j, i), so the matrix is exactly
  // symmetric: rows i and i + 1 against rows i + 2.. four at a time (each
  // load feeds two or four multiply-adds), then what is left pair by pair.
  // The pairs with a row to be scored in double are put right afterwards,
  // so the main loop has no branch.
  const bool any_in_double = row_factors(table, rows, cols, scratch);
  const auto put = [&](std::size_t i, std::size_t j, float dot_ij) {
    const float c = std::clamp(dot_ij * scratch[j] * scratch[i], -1.0f, 1.0f);
    out[i * rows + j] = c;
    out[j * rows + i] = c;
  };
  const auto dot_of = [&](const float* a, const float* b) {
    float dot, norm;
    dot_and_norm_row(a, b, cols, dot, norm);
    return dot;
  };
  float dots[8];
  std::size_t i = 0;
  for (; i + 2 <= rows; i += 2) {
    const float* a = table + i * cols;
    const float* b = a + cols;
    put(i, i, dot_of(a, a));
    put(i + 1, i + 1, dot_of(b, b));
    put(i, i + 1, dot_of(a, b));
    std::size_t j = i + 2;
    for (; j + 4 <= rows; j += 4) {
      const float* r = table + j * cols;
      dot_two_by_four(a, b, r, r + cols, r + 2 * cols, r + 3 * cols, cols, dots);
      for (std::size_t t = 0; t < 4; ++t) {
        put(i, j + t, dots[t]);
        put(i + 1, j + t, dots[4 + t]);
      }
    }
    for (; j < rows; ++j) {
      put(i, j, dot_of(a, table + j * cols));
      put(i + 1, j, dot_of(b, table + j * cols));
    }
  }
  if (i < rows) put(i, i, dot_of(table + i * cols, table + i * cols));
  if (!any_in_double) return;
  for (std::size_t r = 0; r < rows; ++r) {
    if (!(scratch[r] < 0)) continue;
    for (std::size_t j = 0; j < rows; ++j) {
      const float c = static_cast<float>(cosine_in_double(table + r * cols, table + j * cols, cols));
      out[r * rows + j] = c;
      out[j * rows + r] = c;
    }
  }
}

// The cosine matrices of a 16-bit table. cosine_matrix_rows' row i is, bit for bit,
// cosine_scores of row i (the promise kernels.h makes and the tests hold
// every backend to), so here it is just that: row i widened (exactly) into
// scratch, then scored against the table as it is stored.
template <class B>
void Kernels<B>::cosine_matrix_rows_16(TableNumbers table, std::size_t rows, std::size_t cols,
                                       std::size_t row_begin, std::size_t row_end, float* scratch,
                                       float* out) {
  for (std::size_t i = row_begin; i < row_end; ++i) {
    widen(table.from(i * cols), cols, scratch);
    cosine_scores(scratch, table, rows, cols, out + (i - row_begin) * rows);
  }
}

// The whole matrix of a 16-bit table as cosine_matrix computes it for floats:
// its upper triangle is cosine_matrix_rows' (the same dot products and the
// same products of norms), mirrored below the diagonal, and the rows to be
// scored in double are put afterwards from the double sums, both ways.
// scratch holds the rows' factors, then the widened row.
template <class B>
void Kernels<B>::cosine_matrix_16(TableNumbers table, std::size_t rows, std::size_t cols, float* scratch,
                                  float* out) {
  float* const row = scratch + rows;
  bool any_in_double = false;
  for (std::size_t i = 0; i < rows; ++i) {
    widen(table.from(i * cols), cols, row);
    scratch[i] = row_factor(squared_norm_row(row, cols));
    any_in_double |= scratch[i] < 0;
    cosine_scores(row, table, rows, cols, out + i * rows);
  }
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = i + 1; j < rows; ++j) out[j * rows + i] = out[i * rows + j];
  if (!any_in_double) return;
  for (std::size_t r = 0; r < rows; ++r) {
    if (!(scratch[r] < 0)) continue;
    // Row r widened, against each row as stored: the same double sums as cosine_reference's.
    widen(table.from(r * cols), cols, row);
    for (std::size_t j = 0; j < rows; ++j) {
      const float c = static_cast<float>(cosine_in_double_16(row, table.from(j * cols), cols));
      out[r * rows + j] = c;
      out[j * rows + r] = c;
    }
  }
}

// A trace over a 16-bit table: each row widened into its output, then the
// two added, the same float32 sums as from converted tables. (A trace is a
// few hundred rows; one loop for every pair of formats keeps the module small.)
template <class B>
void Kernels<B>::embed_tokens_16(const std::int32_t* ids, std::size_t n, TableNumbers wte, TableNumbers wpe,
                                 std::size_t d, float* token_out, float* position_out, float* sum_out) {
  for (std::size_t i = 0; i < n; ++i) {
    float* t_out = token_out + i * d;
    float* p_out = position_out + i * d;
    float* s_out = sum_out + i * d;
    widen(wte.from(static_cast<std::size_t>(ids[i]) * d), d, t_out);
    widen(wpe.from(i * d), d, p_out);
    for (std::size_t k = 0; k < d; ++k) s_out[k] = t_out[k] + p_out[k];
  }
}

template <class B>
void Kernels<B>::embed_tokens(const std::int32_t* ids, std::size_t n, TableNumbers wte_numbers,
                              TableNumbers wpe_numbers, std::size_t d, float* token_out, float* position_out,
                              float* sum_out) {
  if (wte_numbers.format != NumberFormat::F32 || wpe_numbers.format != NumberFormat::F32)
    return embed_tokens_16(ids, n, wte_numbers, wpe_numbers, d, token_out, position_out, sum_out);
  const auto* wte = static_cast<const float*>(wte_numbers.data);
  const auto* wpe = static_cast<const float*>(wpe_numbers.data);
  // One pass per row: each number is read once and written three times. (No
  // memcpy: in WebAssembly without bulk memory, a memcpy of 512 bytes or more
  // is a call out to JavaScript.)
  for (std::size_t i = 0; i < n; ++i) {
    const float* token = wte + static_cast<std::size_t>(ids[i]) * d;
    const float* position = wpe + i * d;
    float* t_out = token_out + i * d;
    float* p_out = position_out + i * d;
    float* s_out = sum_out + i * d;
    std::size_t k = 0;
    for (; k + L <= d; k += L) {
      const V t = B::load(token + k), p = B::load(position + k);
      B::store(t_out + k, t);
      B::store(p_out + k, p);
      B::store(s_out + k, B::add(t, p));
    }
    for (; k < d; ++k) {
      t_out[k] = token[k];
      p_out[k] = position[k];
      s_out[k] = token[k] + position[k];
    }
  }
}

}  // namespace embeddings::kernels
