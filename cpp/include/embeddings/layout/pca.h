// Principal components of a table's rows, centred on their mean, two ways:
//
// - Covariance: the cols × cols covariance matrix, then every eigenpair
//   (eigen.h). Exact, and cheap for narrow tables: rows × cols² / 2
//   multiply-adds.
// - Krylov: randomized block Krylov iteration (Halko, Martinsson and Tropp
//   2011, section 4; Musco and Musco 2015): a few passes over the table,
//   each multiplying a block of b vectors by the covariance without forming
//   it (rows × cols × 2b multiply-adds), the products orthonormalised into a
//   basis, and the components read from the basis by Rayleigh-Ritz. It stops
//   once each component's residual |C u - θ u| is at most `tolerance` × θ₁
//   (C the covariance, θ₁ the largest variance): by the Davis-Kahan bound,
//   each axis is then within residual / gap radians of the exact one (gap:
//   the distance of its variance to the others'), and each variance within
//   residual² / gap of the exact one.
//
// Both read float32 and 16-bit tables as their numbers (table.h), a chunk of
// rows per step, so a caller can do the work in slices or on several
// threads: a pass's chunks are independent tasks, whose partial sums are
// added in chunk order, so the bits do not depend on how the chunks were
// shared out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "embeddings/layout/table.h"

namespace embeddings::layout {

struct Pca {
  std::size_t components = 0, cols = 0;
  std::vector<float> axes;             // (components, cols): unit vectors, largest variance first
  std::vector<double> variance;        // (components): variance along each axis
  std::vector<double> variance_share;  // (components): variance / total variance (0 when it is 0)
  std::vector<float> mean;             // (cols)
};

struct PcaOptions {
  enum class Method { Automatic, Covariance, Krylov };
  std::size_t components = 2;
  // Automatic: Covariance up to kCovarianceColumns columns, Krylov past them.
  Method method = Method::Automatic;
  std::uint64_t seed = 1;          // the Krylov method's random start
  double tolerance = 1e-5;         // Krylov: residual / largest variance at which it stops
  std::size_t block = 4;           // Krylov: vectors per pass (at least `components`)
  std::size_t largest_basis = 64;  // Krylov: at most this many basis vectors (passes × block)
  // False: leave the coordinates in the scaled units of a table the range
  // check scaled (UMAP's start does not mind; table.h).
  bool unscale = true;
  static constexpr std::size_t kCovarianceColumns = 128;
};

// PCA in steps. Each axis's sign is normalised so that its coordinate of
// largest magnitude is positive (the first such, if several tie), so maps
// do not flip between runs or models.
class PcaSteps {
 public:
  // False, with a message, for what it cannot compute. The table must
  // outlive the steps. A table with numbers that are not finite is found
  // in the first steps: step() then returns false with failed() true.
  bool begin(const TableView& table, const PcaOptions& options, std::string& error);
  // Does the next chunk of rows; false once done (or failed).
  bool step();
  bool done() const { return phase_ == Phase::Done; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  // The work, in multiply-adds: done so far, and in all (an estimate until
  // done: the Krylov method's passes depend on the table).
  double work_done() const { return work_done_; }
  double work_total() const;
  double progress() const;

  // The chunks of the pass under way that can be computed now: begin_tasks
  // says how many; run_task computes one (in any order, or several at once
  // on other threads: each writes only its own partial sums); finish_tasks
  // adds them up in chunk order. step() is all three.
  std::size_t begin_tasks();
  void run_task(std::size_t task);
  void finish_tasks();
  // How many chunks one round of tasks covers (1 by default); a host with
  // threads asks for more. It does not change the result.
  void set_round(std::size_t chunks) { round_ = chunks ? chunks : 1; }

  // Once done: the axes, variances and shares; each row's coordinates
  // (rows, components); the method used and, for Krylov, its passes and
  // each component's residual / largest variance.
  const Pca& result() const { return result_; }
  const std::vector<float>& coords() const { return coords_; }
  PcaOptions::Method method() const { return method_; }
  std::size_t passes() const { return passes_; }
  const std::vector<double>& residuals() const { return residuals_; }
  // The power of two the table was read at (table.h); coordinates are in
  // its units when options.unscale is false.
  float scale() const { return scale_; }

 private:
  enum class Phase { Scan, Covariance, Krylov, Coordinates, Done };
  void start_phase(Phase phase);
  void scan_chunk(std::size_t chunk, std::size_t slot);
  void covariance_chunk(std::size_t chunk, std::size_t slot);
  void krylov_chunk(std::size_t chunk, std::size_t slot);
  void coordinates_chunk(std::size_t chunk, std::size_t slot);
  void finish_scan();
  void finish_covariance();
  void start_krylov();
  void finish_krylov_pass();
  bool ritz(std::vector<double>& axes, std::vector<double>& values);
  void next_block();
  void orthonormalise(double* vector, std::size_t against) const;
  void finish_axes(std::vector<double>& axes, const std::vector<double>& values, double total);
  void finish_coordinates();
  void centred_row(std::size_t r, float* out) const;
  void krylov_row(std::size_t r, float* out) const;
  std::size_t chunk_rows() const;
  std::size_t chunks() const { return (table_.rows + chunk_rows() - 1) / chunk_rows(); }
  std::size_t block_size() const { return options_.block < table_.cols ? options_.block : table_.cols; }
  std::size_t largest_basis() const;
  std::size_t scratch_size() const;
  double phase_work_per_number() const;

  TableView table_;
  PcaOptions options_;
  PcaOptions::Method method_ = PcaOptions::Method::Covariance;
  Phase phase_ = Phase::Done;
  std::string error_;
  std::size_t next_chunk_ = 0, round_ = 1, round_first_ = 0, round_count_ = 0, passes_ = 0;
  float scale_ = 1.0f, largest_seen_ = 0.0f;
  double work_done_ = 0, total_variance_ = 0;
  mutable double shown_progress_ = 0;
  std::vector<double> mean_;              // (cols), of the scaled numbers
  std::vector<float> krylov_mean_;        // mean_ rounded to float32
  std::vector<double> partials_;          // (round, sums_.size()): each task's sums
  std::vector<double> sums_;              // what the chunks' partials add up to, in chunk order
  std::vector<unsigned char> finite_;     // (round): whether each task's rows were finite
  std::vector<float> largest_;            // (round): each task's largest magnitude
  std::vector<float> scratch_;            // (round, scratch_size()): each task's rows
  std::vector<double> basis_, products_;  // Krylov: V and C V, a vector of cols each
  std::vector<float> block_;              // the block this pass multiplies, in float32 (block, cols)
  std::vector<double> residuals_;
  std::vector<float> coords_;
  Pca result_;
  std::uint64_t random_state_ = 0;
};

// The whole PCA at once: axes, variances and shares into out, coordinates
// (rows, components) into coords unless it is null. False with a message
// for a table it cannot take (numbers not finite; components not from 1
// to cols; fewer than 2 rows; coordinates beyond float32's range).
bool pca(const TableView& table, const PcaOptions& options, Pca& out, float* coords, std::string& error);
// The covariance method on a float32 table (the values must be finite).
void pca(const float* table, std::size_t rows, std::size_t cols, std::size_t components, Pca& out,
         float* coords);
// The same in double precision throughout, with the Jacobi eigensolver.
void pca_reference(const float* table, std::size_t rows, std::size_t cols, std::size_t components,
                   std::vector<double>& axes, std::vector<double>& variance_share,
                   std::vector<double>& coords);

}  // namespace embeddings::layout
