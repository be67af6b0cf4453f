// PCA in steps (pca.h): the scan of the table, the covariance method, the
// coordinates, and the double-precision reference. The Krylov method's
// passes are in pca_krylov.cpp.
#include "embeddings/layout/pca.h"

#include <algorithm>
#include <cmath>

#include "embeddings/layout/arithmetic.h"
#include "embeddings/layout/eigen.h"
#include "pca_internal.h"
#include "simd.h"

namespace embeddings::layout {

void normalise_sign(double* vector, std::size_t n) {
  std::size_t largest = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (std::fabs(vector[k]) > std::fabs(vector[largest])) largest = k;
  if (vector[largest] < 0)
    for (std::size_t k = 0; k < n; ++k) vector[k] = -vector[k];
}

bool PcaSteps::begin(const TableView& table, const PcaOptions& options, std::string& error) {
  phase_ = Phase::Done;
  if (options.components == 0 || options.components > table.cols) {
    error = "components must be from 1 to the number of columns (" + std::to_string(table.cols) + ")";
    return false;
  }
  if (table.rows < 2) {
    error = "a map needs at least 2 rows";
    return false;
  }
  if (options.method != PcaOptions::Method::Covariance &&
      (options.block < options.components || options.largest_basis < options.block)) {
    error = "the Krylov block must hold the components, and the basis a block";
    return false;
  }
  table_ = table;
  options_ = options;
  method_ = options.method;
  if (method_ == PcaOptions::Method::Automatic)
    method_ = table.cols <= PcaOptions::kCovarianceColumns ? PcaOptions::Method::Covariance
                                                           : PcaOptions::Method::Krylov;
  error_.clear();
  passes_ = 0;
  work_done_ = 0;
  scale_ = 1.0f;
  largest_seen_ = 0.0f;
  shown_progress_ = 0;
  random_state_ = options.seed;
  residuals_.assign(options.components, 0.0);
  coords_.assign(table.rows * options.components, 0.0f);
  result_ = Pca();
  start_phase(Phase::Scan);
  return true;
}

std::size_t PcaSteps::chunk_rows() const {
  // The covariance method's blocks are 4096 rows, so that a table of up to
  // 4096 rows sums each column in one dot product. The Krylov method's
  // chunks hold about 4 million multiply-adds of a pass, 64 rows at least.
  if (method_ == PcaOptions::Method::Covariance) return 4096;
  const std::size_t per_row = table_.cols * 2 * options_.block;
  std::size_t rows = (std::size_t{1} << 22) / (per_row ? per_row : 1);
  rows = std::max<std::size_t>(kFloatBlockRows, std::min<std::size_t>(4096, rows));
  return rows / kFloatBlockRows * kFloatBlockRows;
}

void PcaSteps::start_phase(Phase phase) {
  phase_ = phase;
  next_chunk_ = 0;
  round_count_ = 0;
  const std::size_t cols = table_.cols;
  std::size_t partial = 0;
  if (phase == Phase::Scan) partial = cols;
  if (phase == Phase::Covariance) partial = cols * cols;
  if (phase == Phase::Krylov) partial = cols * block_size() + 1;
  sums_.assign(partial, 0.0);
  partials_.assign(partial * round_, 0.0);
  finite_.assign(round_, 1);
  largest_.assign(round_, 0.0f);
  scratch_.assign(round_ * scratch_size(), 0.0f);
}

std::size_t PcaSteps::begin_tasks() {
  if (phase_ == Phase::Done || round_count_ != 0) return round_count_;
  if (partials_.size() < sums_.size() * round_ || finite_.size() < round_) {
    partials_.assign(sums_.size() * round_, 0.0);
    finite_.assign(round_, 1);
    largest_.assign(round_, 0.0f);
    scratch_.assign(round_ * scratch_size(), 0.0f);
  }
  round_first_ = next_chunk_;
  round_count_ = std::min(round_, chunks() - next_chunk_);
  return round_count_;
}

void PcaSteps::run_task(std::size_t task) {
  const std::size_t chunk = round_first_ + task;
  switch (phase_) {
    case Phase::Scan: scan_chunk(chunk, task); break;
    case Phase::Covariance: covariance_chunk(chunk, task); break;
    case Phase::Krylov: krylov_chunk(chunk, task); break;
    case Phase::Coordinates: coordinates_chunk(chunk, task); break;
    case Phase::Done: break;
  }
}

void PcaSteps::finish_tasks() {
  if (round_count_ == 0) return;
  // The chunks' partial sums, added in chunk order whatever order they were computed in.
  const std::size_t size = sums_.size();
  for (std::size_t task = 0; task < round_count_; ++task) {
    const double* partial = &partials_[task * size];
    for (std::size_t k = 0; k < size; ++k) sums_[k] += partial[k];
    std::fill(partials_.begin() + task * size, partials_.begin() + (task + 1) * size, 0.0);
  }
  const std::size_t first = round_first_, count = round_count_;
  next_chunk_ += count;
  round_count_ = 0;
  const std::size_t rows = std::min(table_.rows, (first + count) * chunk_rows()) - first * chunk_rows();
  work_done_ += rows * table_.cols * phase_work_per_number();
  if (phase_ == Phase::Scan) {
    for (std::size_t task = 0; task < count; ++task) {
      if (!finite_[task]) error_ = "the table holds values that are not finite numbers (NaN or infinity)";
      largest_seen_ = std::max(largest_seen_, largest_[task]);
      finite_[task] = 1;
      largest_[task] = 0.0f;
    }
    if (!error_.empty()) {
      phase_ = Phase::Done;
      return;
    }
  }
  if (next_chunk_ < chunks()) return;
  switch (phase_) {
    case Phase::Scan: finish_scan(); break;
    case Phase::Covariance: finish_covariance(); break;
    case Phase::Krylov: finish_krylov_pass(); break;
    case Phase::Coordinates: finish_coordinates(); break;
    case Phase::Done: break;
  }
}

bool PcaSteps::step() {
  const std::size_t count = begin_tasks();
  for (std::size_t task = 0; task < count; ++task) run_task(task);
  finish_tasks();
  return phase_ != Phase::Done;
}

double PcaSteps::phase_work_per_number() const {
  switch (phase_) {
    case Phase::Scan: return 1;
    case Phase::Covariance: return 0.5 * static_cast<double>(table_.cols + 1);
    case Phase::Krylov: return 2.0 * static_cast<double>(block_size()) + (passes_ == 0 ? 1 : 0);
    case Phase::Coordinates: return static_cast<double>(options_.components) + 1;
    case Phase::Done: return 0;
  }
  return 0;
}

double PcaSteps::work_total() const {
  if (done()) return work_done_;
  const double numbers = static_cast<double>(table_.rows) * static_cast<double>(table_.cols);
  double total = numbers * (1 + static_cast<double>(options_.components) + 1);
  if (method_ == PcaOptions::Method::Covariance) return total + numbers * 0.5 * (table_.cols + 1);
  const double passes = std::max<double>(static_cast<double>(passes_ + 1), kExpectedPasses);
  return total + numbers * (passes * 2.0 * static_cast<double>(block_size()) + 1);
}

double PcaSteps::progress() const {
  if (done()) return 1;
  const double now = std::min(1.0, work_done_ / work_total());
  shown_progress_ = std::max(shown_progress_, now);
  return shown_progress_;
}

std::size_t PcaSteps::scratch_size() const {
  // A centred row (the Krylov method: a group of them, and a float block of products).
  return table_.cols * (method_ == PcaOptions::Method::Krylov ? kGroupRows + block_size() : 1) +
         (method_ == PcaOptions::Method::Covariance ? table_.cols * chunk_rows() : 0);
}

void PcaSteps::centred_row(std::size_t r, float* out) const {
  // In double, then rounded, as the covariance method always has.
  const std::size_t cols = table_.cols;
  const float* from = out;
  if (table_.numbers == Numbers::Float32 && scale_ == 1.0f)
    from = table_.floats(r);
  else
    table_.widen_row(r, out, scale_);
  std::size_t c = 0;
#if defined(EMBEDDINGS_LAYOUT_SIMD)
  for (; c + 4 <= cols; c += 4)
    simd::store(out + c, simd::sub_in_double(simd::load_floats(from + c), &mean_[c]));
#endif
  for (; c < cols; ++c) out[c] = static_cast<float>(from[c] - mean_[c]);
}

// ---- The scan: finite numbers, the range, the column sums ----------------------------------

void PcaSteps::scan_chunk(std::size_t chunk, std::size_t slot) {
  const std::size_t cols = table_.cols, first = chunk * chunk_rows();
  const std::size_t end = std::min(table_.rows, first + chunk_rows());
  float largest = 0;
  if (!table_.scan(first, end, largest)) {
    finite_[slot] = 0;
    return;
  }
  largest_[slot] = largest;
  double* sums = &partials_[slot * cols];
  float* row = &scratch_[slot * scratch_size()];
  for (std::size_t r = first; r < end; ++r) {
    table_.widen_row(r, row);
    for (std::size_t c = 0; c < cols; ++c) sums[c] += row[c];
  }
}

void PcaSteps::finish_scan() {
  scale_ = range_scale(largest_seen_);
  mean_.assign(table_.cols, 0.0);
  result_.mean.assign(table_.cols, 0.0f);
  const double rows = static_cast<double>(table_.rows);
  for (std::size_t c = 0; c < table_.cols; ++c) {
    // Scaling the sum by a power of two is exact: the mean of the scaled numbers.
    mean_[c] = sums_[c] * scale_ / rows;
    result_.mean[c] = static_cast<float>(mean_[c] / scale_);
  }
  start_phase(method_ == PcaOptions::Method::Covariance ? Phase::Covariance : Phase::Krylov);
  if (method_ == PcaOptions::Method::Krylov) start_krylov();
}

// ---- The covariance method ---------------------------------------------------------------

void PcaSteps::covariance_chunk(std::size_t chunk, std::size_t slot) {
  // The chunk's centred rows transposed, so that each covariance entry is
  // one dot product of two contiguous columns.
  const std::size_t cols = table_.cols, first = chunk * chunk_rows();
  const std::size_t n = std::min(table_.rows, first + chunk_rows()) - first;
  float* row = &scratch_[slot * scratch_size()];
  float* columns = row + cols;
  for (std::size_t r = 0; r < n; ++r) {
    centred_row(first + r, row);
    for (std::size_t c = 0; c < cols; ++c) columns[c * n + r] = row[c];
  }
  double* covariance = &partials_[slot * cols * cols];
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = i; j < cols; ++j)
      covariance[i * cols + j] = layout_dot(&columns[i * n], &columns[j * n], n);
}

void PcaSteps::finish_covariance() {
  const std::size_t cols = table_.cols;
  const double divisor = static_cast<double>(table_.rows - 1);
  std::vector<double> covariance(cols * cols);
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = i; j < cols; ++j) {
      const double value = sums_[i * cols + j] / divisor;
      covariance[i * cols + j] = value;
      covariance[j * cols + i] = value;
    }
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i) total += covariance[i * cols + i];
  std::vector<double> values(cols), vectors(cols * cols);
  symmetric_eigen(covariance.data(), cols, values.data(), vectors.data());
  vectors.resize(options_.components * cols);
  values.resize(options_.components);
  finish_axes(vectors, values, total);
}

// ---- The axes and each row's coordinates ---------------------------------------------------

void PcaSteps::finish_axes(std::vector<double>& axes, const std::vector<double>& values, double total) {
  const std::size_t cols = table_.cols, components = options_.components;
  result_.components = components;
  result_.cols = cols;
  result_.axes.assign(components * cols, 0.0f);
  result_.variance.assign(components, 0.0);
  result_.variance_share.assign(components, 0.0);
  const double unscale = 1.0 / (static_cast<double>(scale_) * scale_);
  for (std::size_t i = 0; i < components; ++i) {
    double* axis = &axes[i * cols];
    normalise_sign(axis, cols);
    for (std::size_t c = 0; c < cols; ++c) result_.axes[i * cols + c] = static_cast<float>(axis[c]);
    // Rounding can leave the smallest eigenvalues a hair below zero.
    const double variance = values[i] > 0 ? values[i] : 0;
    result_.variance[i] = variance * unscale;
    result_.variance_share[i] = total > 0 ? variance / total : 0;
  }
  start_phase(Phase::Coordinates);
}

void PcaSteps::coordinates_chunk(std::size_t chunk, std::size_t slot) {
  const std::size_t cols = table_.cols, components = options_.components, first = chunk * chunk_rows();
  const std::size_t end = std::min(table_.rows, first + chunk_rows());
  float* row = &scratch_[slot * scratch_size()];
  for (std::size_t r = first; r < end; ++r) {
    centred_row(r, row);
    for (std::size_t i = 0; i < components; ++i)
      coords_[r * components + i] = layout_dot(row, &result_.axes[i * cols], cols);
  }
}

void PcaSteps::finish_coordinates() {
  phase_ = Phase::Done;
  if (!options_.unscale || scale_ == 1.0f) return;
  const float unscale = 1.0f / scale_;
  for (float& x : coords_) {
    x *= unscale;
    if (!std::isfinite(x)) {
      error_ = "the table's numbers are so large that its PCA coordinates are beyond float32's range";
      return;
    }
  }
}

bool pca(const TableView& table, const PcaOptions& options, Pca& out, float* coords, std::string& error) {
  PcaSteps steps;
  if (!steps.begin(table, options, error)) return false;
  while (steps.step()) {
  }
  if (steps.failed()) {
    error = steps.error();
    return false;
  }
  out = steps.result();
  if (coords != nullptr) std::copy(steps.coords().begin(), steps.coords().end(), coords);
  return true;
}

void pca(const float* table, std::size_t rows, std::size_t cols, std::size_t components, Pca& out,
         float* coords) {
  PcaOptions options;
  options.components = components > cols ? cols : components;
  options.method = PcaOptions::Method::Covariance;
  std::string error;
  pca(TableView::of_floats(table, rows, cols), options, out, coords, error);
}

void pca_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t components,
                   std::vector<double>& axes, std::vector<double>& variance_share,
                   std::vector<double>& coords) {
  std::vector<double> mean(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) mean[c] += table[r * cols + c];
  for (double& m : mean) m /= static_cast<double>(rows);
  std::vector<double> covariance(cols * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < cols; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        covariance[i * cols + j] += (table[r * cols + i] - mean[i]) * (table[r * cols + j] - mean[j]);
  for (double& value : covariance) value /= static_cast<double>(rows > 1 ? rows - 1 : 1);
  double total = 0;
  for (std::size_t i = 0; i < cols; ++i) total += covariance[i * cols + i];
  std::vector<double> values(cols), vectors(cols * cols);
  symmetric_eigen_reference(covariance.data(), cols, values.data(), vectors.data());
  axes.assign(components * cols, 0.0);
  variance_share.assign(components, 0.0);
  coords.assign(rows * components, 0.0);
  for (std::size_t i = 0; i < components; ++i) {
    normalise_sign(&vectors[i * cols], cols);
    for (std::size_t c = 0; c < cols; ++c) axes[i * cols + c] = vectors[i * cols + c];
    variance_share[i] = total > 0 ? values[i] / total : 0;
    for (std::size_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (std::size_t c = 0; c < cols; ++c) sum += (table[r * cols + c] - mean[c]) * axes[i * cols + c];
      coords[r * components + i] = sum;
    }
  }
}

}  // namespace embeddings::layout
