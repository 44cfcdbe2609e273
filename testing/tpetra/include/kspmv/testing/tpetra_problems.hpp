#pragma once
// Distributed problems for the Tpetra integration's tests and benchmark (every rank builds its
// part): Maps of three distributions, the 3-D Poisson matrix, rectangular matrices, vectors drawn
// per global row (the same values whatever the number of ranks), and the relative difference of
// two multivectors.

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kspmv/tpetra.hpp"

namespace kspmv::tpetra::testing {

using Scalar = double;
using Operator = kspmv::tpetra::CrsOperator<Scalar>;
using Matrix = Operator::matrix_type;
using MultiVector = Operator::multivector_type;
using Map = Operator::map_type;
using GO = Map::global_ordinal_type;
using LO = Map::local_ordinal_type;

inline Teuchos::RCP<const Teuchos::Comm<int>> comm() {
  return Tpetra::getDefaultComm();
}

enum class Distribution { contiguous, round_robin, rank0_empty };

inline std::string to_string(Distribution d) {
  return d == Distribution::contiguous    ? "contiguous rows"
         : d == Distribution::round_robin ? "round-robin rows"
                                          : "rank 0 owns no rows";
}

inline Teuchos::RCP<const Map> make_map(GO global_size, Distribution distribution) {
  const int rank = comm()->getRank();
  const int ranks = comm()->getSize();
  std::vector<GO> mine;
  for (GO g = 0; g < global_size; ++g) {
    int owner = 0;
    if (distribution == Distribution::contiguous) {
      owner = static_cast<int>(g * ranks / global_size);
    } else if (distribution == Distribution::round_robin) {
      owner = static_cast<int>(g % ranks);
    } else {
      owner = ranks == 1 ? 0 : 1 + static_cast<int>(g * (ranks - 1) / global_size);
    }
    if (owner == rank) mine.push_back(g);
  }
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  return Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const GO>(mine), 0, comm()));
}

// The 7-point Laplacian of an n x n x n grid, rows distributed as `distribution` says.
inline Teuchos::RCP<const Matrix> poisson(GO n, Distribution distribution) {
  const auto map = make_map(n * n * n, distribution);
  auto A = Teuchos::rcp(new Matrix(map, 7));
  for (LO i = 0; i < static_cast<LO>(map->getNodeNumElements()); ++i) {
    const GO g = map->getGlobalElement(i);
    const GO x = g % n, y = (g / n) % n, z = g / (n * n);
    std::vector<GO> columns{g};
    std::vector<Scalar> values{6.0};
    const auto neighbour = [&](bool inside, GO column) {
      if (inside) {
        columns.push_back(column);
        values.push_back(-1.0);
      }
    };
    neighbour(x > 0, g - 1);
    neighbour(x < n - 1, g + 1);
    neighbour(y > 0, g - n);
    neighbour(y < n - 1, g + n);
    neighbour(z > 0, g - n * n);
    neighbour(z < n - 1, g + n * n);
    A->insertGlobalValues(g, Teuchos::ArrayView<const GO>(columns),
                          Teuchos::ArrayView<const Scalar>(values));
  }
  A->fillComplete();
  return A;
}

// rows x cols with 5 entries a row, rows on a contiguous Map, the domain round-robin (an Import)
// and the range as `range` says (round-robin: an Export too).
inline Teuchos::RCP<const Matrix> rectangular(GO rows, GO cols, Distribution range,
                                              std::uint64_t seed) {
  const auto row_map = make_map(rows, Distribution::contiguous);
  const auto domain_map = make_map(cols, Distribution::round_robin);
  const auto range_map = make_map(rows, range);
  auto A = Teuchos::rcp(new Matrix(row_map, 5));
  for (LO i = 0; i < static_cast<LO>(row_map->getNodeNumElements()); ++i) {
    const GO g = row_map->getGlobalElement(i);
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(g));
    std::vector<GO> columns;
    std::vector<Scalar> values;
    for (int k = 0; k < 5; ++k) {
      columns.push_back(static_cast<GO>((g * cols / rows + 37 * k + rng() % 7) % cols));
      values.push_back(std::uniform_real_distribution<Scalar>(-1, 1)(rng));
    }
    A->insertGlobalValues(g, Teuchos::ArrayView<const GO>(columns),
                          Teuchos::ArrayView<const Scalar>(values));
  }
  A->fillComplete(domain_map, range_map);
  return A;
}

// Values drawn per global row, so that they do not depend on the number of ranks.
inline void fill(MultiVector& V, std::uint64_t seed) {
  const auto map = V.getMap();
  for (std::size_t j = 0; j < V.getNumVectors(); ++j) {
    for (LO i = 0; i < static_cast<LO>(map->getNodeNumElements()); ++i) {
      std::mt19937_64 rng(seed + 1000003ull * j +
                          static_cast<std::uint64_t>(map->getGlobalElement(i)));
      V.replaceLocalValue(i, j, std::uniform_real_distribution<Scalar>(-1, 1)(rng));
    }
  }
}

// max over vectors of |Y - expected| / |expected| (2-norms), the same on every rank.
inline double relative_difference(const MultiVector& Y, const MultiVector& expected) {
  MultiVector difference(Y, Teuchos::Copy);
  difference.update(-1.0, expected, 1.0);
  std::vector<Scalar> d(Y.getNumVectors()), e(Y.getNumVectors());
  difference.norm2(Teuchos::ArrayView<Scalar>(d));
  expected.norm2(Teuchos::ArrayView<Scalar>(e));
  double worst = 0;
  for (std::size_t j = 0; j < d.size(); ++j) {
    worst = std::max(worst, std::isnan(d[j]) ? INFINITY : d[j] / std::max(e[j], 1e-300));
  }
  return worst;
}

}  // namespace kspmv::tpetra::testing
