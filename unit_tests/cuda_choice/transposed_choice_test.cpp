// Every rule of the transposed calls' choice (transposed/choice.cpp), on plain inputs: the trial of
// the transpose tiles, the scatter with determinism off, the products, and which form serves each
// call given what the first call found (the mirror, the tiles kept), the values declared constant
// or not and the call's vectors. Each table sits on the boundary of its rule or walks the
// precedence one rule at a time, so a rule moved by one step or out of order fails here.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "choice_fixtures.hpp"
#include "transposed/choice.hpp"

namespace kspmv::cuda::detail {
namespace {

using namespace fixtures;

PlanRequest transposed(TransposedForm form, Algorithm algorithm = Algorithm::Auto) {
  PlanRequest request = asking(algorithm);
  request.transposed_form = form;
  return request;
}

// Auto tries the tiles, up to a quarter run an entry, only for Algorithm::Auto past the latency
// bound where A^T's rows (A's columns) are fewer than the GPU's warp slots (132 x 64 on the H100);
// Tiles takes them whatever their runs on any matrix a tile's 32-bit rows hold; Rows never.
TEST(TransposedChoice, TransposeTilesTriedPastTheLatencyBoundOrWhenAskedFor) {
  MatrixFacts at = square(kLatencyBound / 16, 16, 16, kFarReach);
  at.cols = 132 * 64 - 1;
  MatrixFacts below = at;
  below.entries = kLatencyBound - 1;
  MatrixFacts wide = at;
  wide.cols = 132 * 64;
  const auto trial = [](const MatrixFacts& matrix, PlanRequest request) {
    return transpose_tiles_trial(inputs(matrix, h100(), request));
  };

  const TransposeTilesTrial auto_at = trial(at, transposed(TransposedForm::Auto));
  EXPECT_TRUE(auto_at.tried);
  EXPECT_EQ(auto_at.most_runs_per_entry, 0.25);
  EXPECT_EQ(auto_at.not_tried, "");

  const TransposeTilesTrial auto_below = trial(below, transposed(TransposedForm::Auto));
  EXPECT_FALSE(auto_below.tried);
  EXPECT_EQ(auto_below.not_tried, "latency-bound: fewer than 1048576 entries");

  const TransposeTilesTrial auto_wide = trial(wide, transposed(TransposedForm::Auto));
  EXPECT_FALSE(auto_wide.tried);
  EXPECT_EQ(auto_wide.not_tried, "A^T's 8448 rows fill the GPU's 8448 warp slots");
  EXPECT_TRUE(trial(wide, transposed(TransposedForm::Tiles)).tried);

  const TransposeTilesTrial explicit_at =
      trial(at, transposed(TransposedForm::Auto, Algorithm::Vector));
  EXPECT_FALSE(explicit_at.tried);
  EXPECT_EQ(explicit_at.not_tried, "");

  for (const Algorithm algorithm : {Algorithm::Auto, Algorithm::Scalar}) {
    const TransposeTilesTrial tiles_below =
        trial(below, transposed(TransposedForm::Tiles, algorithm));
    EXPECT_TRUE(tiles_below.tried) << to_string(algorithm);
    EXPECT_EQ(tiles_below.most_runs_per_entry, std::numeric_limits<double>::infinity());
    const TransposeTilesTrial rows_at = trial(at, transposed(TransposedForm::Rows, algorithm));
    EXPECT_FALSE(rows_at.tried) << to_string(algorithm);
    EXPECT_EQ(rows_at.not_tried, "A^T's rows asked for");
  }

  MatrixFacts too_many_rows = at;
  too_many_rows.rows = std::int64_t{std::numeric_limits<int>::max()} + 1;
  const TransposeTilesTrial past_rows = trial(too_many_rows, transposed(TransposedForm::Tiles));
  EXPECT_FALSE(past_rows.tried);
  EXPECT_EQ(past_rows.not_tried, "2^31 rows or more, past a tile's 32-bit rows");
  MatrixFacts at_most_rows = too_many_rows;
  at_most_rows.rows -= 1;
  EXPECT_TRUE(trial(at_most_rows, transposed(TransposedForm::Tiles)).tried);

  EXPECT_FALSE(trial(square(0, 0, 0), transposed(TransposedForm::Tiles)).tried);
  EXPECT_TRUE(looks_for_mirror(transposed(TransposedForm::Auto)));
  EXPECT_TRUE(looks_for_mirror(transposed(TransposedForm::Rows)));
  EXPECT_FALSE(looks_for_mirror(transposed(TransposedForm::Tiles)));
  EXPECT_FALSE(looks_for_mirror(transposed(TransposedForm::Products)));
  const TransposeTilesTrial products_at = trial(at, transposed(TransposedForm::Products));
  EXPECT_FALSE(products_at.tried);
  EXPECT_EQ(products_at.not_tried, "the products asked for");
}

// With determinism off the scatter serves while y, in the sums' type, fits in L2 (52,428,800 bytes
// on the H100: 6,553,600 columns of fp64, 3,276,800 of complex double); one more column and the
// deterministic forms serve as with determinism on (here the products).
TEST(TransposedChoice, TransposedScatterWhileL2HoldsY) {
  const auto scatter_chosen = [](std::int64_t cols, bool deterministic, ValueTypes types = fp64()) {
    MatrixFacts matrix = square(8'000'000, 4, 4, kUnknownReach);
    matrix.cols = cols;
    PlanRequest request = transposed(TransposedForm::Auto);
    request.deterministic = deterministic;
    return transposed_scatter_chosen(inputs(matrix, h100(), request, types));
  };
  EXPECT_TRUE(scatter_chosen(6'553'600, false));
  EXPECT_FALSE(scatter_chosen(6'553'601, false));
  EXPECT_FALSE(scatter_chosen(6'553'600, true));
  EXPECT_TRUE(scatter_chosen(13'107'200, false, fp32()));
  EXPECT_FALSE(scatter_chosen(13'107'201, false, fp32()));
  EXPECT_TRUE(scatter_chosen(3'276'800, false, complex_double()));
  EXPECT_FALSE(scatter_chosen(3'276'801, false, complex_double()));
  MatrixFacts short_rows = square(20'000'000, 3, 4, kUnknownReach);  // y of 160 MB in fp64
  PlanRequest atomic = transposed(TransposedForm::Auto);
  atomic.deterministic = false;
  EXPECT_FALSE(transposed_scatter_chosen(inputs(short_rows, h200(), atomic)));
  EXPECT_TRUE(transposed_products_choice(inputs(short_rows, h200(), atomic)).taken);
  short_rows.cols = 2'000'000;
  EXPECT_TRUE(transposed_scatter_chosen(inputs(short_rows, h200(), atomic)));
  EXPECT_FALSE(transposed_products_choice(inputs(short_rows, h200(), atomic)).taken);
}

// Auto takes the products for Algorithm::Auto past the latency bound where the window of A's
// values that A^T's rows in flight gather from (the rows within the column reach, both sides, of
// the mean row length, in the values' bytes) exceeds half of L2 (26,214,400 bytes on the H100: 2 x
// 409,599 + 1 rows of 4 fp64 values within it, one more row past it) and those rows number more
// than 65,536 a byte of value, at most 524,288 (fp64's); Auto's for one-vector calls only. Products
// asked for takes them on any matrix with entries, for every call, whatever the algorithm and
// determinism, unless A's values are single precision under double vectors; Rows and Tiles never.
TEST(TransposedChoice, TransposedProductsWhereAsValuesFallOutOfL2FromManyRows) {
  const MatrixFacts within = square(4'000'000, 4, 4, 409'599);
  const MatrixFacts beyond = square(4'000'000, 4, 4, 409'600);
  const auto choice = [](const MatrixFacts& matrix, PlanRequest request,
                         ValueTypes types = fp64()) {
    return transposed_products_choice(inputs(matrix, h100(), request, types));
  };
  EXPECT_EQ(transposed_gather_rows(beyond), 819'201);
  EXPECT_EQ(transposed_gather_window_bytes(inputs(within)), 26'214'368);
  EXPECT_EQ(transposed_gather_window_bytes(inputs(beyond)), 26'214'432);

  const TransposedProductsChoice auto_beyond = choice(beyond, transposed(TransposedForm::Auto));
  EXPECT_TRUE(auto_beyond.taken);
  EXPECT_EQ(auto_beyond.not_taken, "");
  const TransposedProductsChoice auto_within = choice(within, transposed(TransposedForm::Auto));
  EXPECT_FALSE(auto_within.taken);
  EXPECT_EQ(auto_within.not_taken, "A's values within reach, 26214368 bytes, fit in half of L2");
  // In single precision the same reach holds half the bytes; an unknown reach means all of A.
  EXPECT_FALSE(choice(beyond, transposed(TransposedForm::Auto), fp32()).taken);
  EXPECT_TRUE(
      choice(square(8'000'000, 4, 4, kUnknownReach), transposed(TransposedForm::Auto), fp32())
          .taken);
  EXPECT_FALSE(choice(stencil(), transposed(TransposedForm::Auto)).taken);
  EXPECT_TRUE(choice(power_law(), transposed(TransposedForm::Auto)).taken);

  // The rows gathered from, past the window: 65,536 a byte of value (524,288 for complex double as
  // for fp64) keep A^T's rows, one more takes the products, whatever A^T's rows hold (64 entries
  // here); within reach, the rows within it count, not A's.
  const auto random_columns = [](std::int64_t rows) { return square(rows, 64, 64, kUnknownReach); };
  EXPECT_EQ(choice(random_columns(524'288), transposed(TransposedForm::Auto)).not_taken,
            "A^T's rows gather from 524288 rows of A, at most 524288 for 8-byte values");
  EXPECT_TRUE(choice(random_columns(524'289), transposed(TransposedForm::Auto)).taken);
  EXPECT_FALSE(choice(random_columns(262'144), transposed(TransposedForm::Auto), fp32()).taken);
  EXPECT_TRUE(choice(random_columns(262'145), transposed(TransposedForm::Auto), fp32()).taken);
  EXPECT_EQ(
      choice(random_columns(524'288), transposed(TransposedForm::Auto), complex_double()).not_taken,
      "A^T's rows gather from 524288 rows of A, at most 524288 for 16-byte values");
  EXPECT_TRUE(
      choice(random_columns(524'289), transposed(TransposedForm::Auto), complex_double()).taken);
  MatrixFacts tall = random_columns(3'000'000);
  tall.cols = 600'000;  // A^T's rows of 320 entries
  EXPECT_TRUE(choice(tall, transposed(TransposedForm::Auto)).taken);
  EXPECT_EQ(choice(square(4'000'000, 16, 16, 102'400), transposed(TransposedForm::Auto)).not_taken,
            "A^T's rows gather from 204801 rows of A, at most 524288 for 8-byte values");
  EXPECT_TRUE(choice(random_columns(524'288), transposed(TransposedForm::Products)).taken);

  MatrixFacts below = beyond;
  below.entries = kLatencyBound - 1;
  EXPECT_EQ(choice(below, transposed(TransposedForm::Auto)).not_taken,
            "latency-bound: fewer than 1048576 entries");
  const TransposedProductsChoice explicit_beyond =
      choice(beyond, transposed(TransposedForm::Auto, Algorithm::Vector));
  EXPECT_FALSE(explicit_beyond.taken);
  EXPECT_EQ(explicit_beyond.not_taken, "");
  PlanRequest atomic = transposed(TransposedForm::Auto);
  atomic.deterministic = false;
  EXPECT_EQ(choice(beyond, atomic).not_taken,
            "determinism off: atomic adds into y, whose 32000000 bytes L2 holds");
  EXPECT_EQ(choice(beyond, transposed(TransposedForm::Rows)).not_taken, "A^T's rows asked for");
  EXPECT_FALSE(choice(beyond, transposed(TransposedForm::Tiles)).taken);

  for (const Algorithm algorithm : {Algorithm::Auto, Algorithm::Scalar}) {
    EXPECT_TRUE(choice(below, transposed(TransposedForm::Products, algorithm)).taken)
        << to_string(algorithm);
    EXPECT_TRUE(choice(within, transposed(TransposedForm::Products, algorithm)).taken);
  }
  atomic.transposed_form = TransposedForm::Products;
  EXPECT_TRUE(choice(beyond, atomic).taken);
  EXPECT_EQ(choice(beyond, transposed(TransposedForm::Products), fp32_values_fp64_sums()).not_taken,
            "A's values are single precision, the products would be x's type");
  MatrixFacts too_many_rows = beyond;
  too_many_rows.rows = std::int64_t{std::numeric_limits<int>::max()} + 1;
  EXPECT_EQ(choice(too_many_rows, transposed(TransposedForm::Products)).not_taken,
            "2^31 rows or more, past a tile's 32-bit rows");
  EXPECT_FALSE(choice(square(0, 0, 0), transposed(TransposedForm::Products)).taken);

  // Auto's products serve one-vector calls; asked for by name, every call.
  EXPECT_FALSE(auto_beyond.asked);
  EXPECT_TRUE(sums_products(auto_beyond, 1));
  EXPECT_FALSE(sums_products(auto_beyond, 2));
  EXPECT_FALSE(sums_products(auto_within, 1));
  const TransposedProductsChoice asked = choice(beyond, transposed(TransposedForm::Products));
  EXPECT_TRUE(asked.asked);
  EXPECT_TRUE(sums_products(asked, 1));
  EXPECT_TRUE(sums_products(asked, 3));
}

// The choices the first transposed call records: nothing past the mirror or the tiles (neither the
// products nor the scatter are weighed where they serve), else the products' choice and the
// scatter where the products were not taken.
TEST(TransposedChoice, ChoicesStopAtTheMirrorAndTheTiles) {
  const MatrixFacts beyond = square(4'000'000, 4, 4, 409'600);  // products past half of L2
  PlanRequest atomic = transposed(TransposedForm::Auto);
  atomic.deterministic = false;
  const PlanInputs scattering = inputs(square(2'000'000, 4, 4, kUnknownReach), h100(), atomic);
  const PlanInputs products = inputs(beyond, h100(), transposed(TransposedForm::Auto));

  for (const PlanInputs& facts : {scattering, products}) {
    const TransposedChoices mirror = transposed_choices(facts, true, false);
    EXPECT_TRUE(mirror.mirrors_a);
    EXPECT_FALSE(mirror.tiles_kept || mirror.scatter || mirror.products.taken);
    EXPECT_EQ(mirror.products.not_taken, "");
    const TransposedChoices tiles = transposed_choices(facts, false, true);
    EXPECT_TRUE(tiles.tiles_kept);
    EXPECT_FALSE(tiles.mirrors_a || tiles.scatter || tiles.products.taken);
  }
  const TransposedChoices scatter = transposed_choices(scattering, false, false);
  EXPECT_TRUE(scatter.scatter);
  EXPECT_FALSE(scatter.products.taken);
  const TransposedChoices summed = transposed_choices(products, false, false);
  EXPECT_TRUE(summed.products.taken);
  EXPECT_FALSE(summed.scatter);

  // Products asked for by name with determinism off: the products, never the scatter.
  PlanRequest asked = transposed(TransposedForm::Products);
  asked.deterministic = false;
  const TransposedChoices asked_products = transposed_choices(
      inputs(square(2'000'000, 4, 4, kUnknownReach), h100(), asked), false, false);
  EXPECT_TRUE(asked_products.products.taken);
  EXPECT_FALSE(asked_products.scatter);
}

struct FormCase {
  const char* name;
  TransposedChoices choices;
  bool values_constant;
  std::int64_t vectors;
  TransposedFormId expected;
};

TransposedChoices made(bool mirrors_a, bool tiles_kept, bool products_taken, bool products_asked,
                       bool scatter) {
  TransposedChoices choices;
  choices.mirrors_a = mirrors_a;
  choices.tiles_kept = tiles_kept;
  choices.products.taken = products_taken;
  choices.products.asked = products_asked;
  choices.scatter = scatter;
  return choices;
}

// Each row takes away the rule above it: the mirror first (whatever the values and the vectors),
// then the tiles (whatever the values), then values declared constant (the transposed copy), then
// the products for the calls they sum (Auto's: one vector; asked for: every call), then the
// scatter, then A^T's rows gathering A's values.
TEST(TransposedChoice, EachCallTakesTheFirstFormThatServes) {
  const std::vector<FormCase> cases = {
      {"mirror", made(true, false, false, false, false), false, 1, TransposedFormId::Rows},
      {"mirror, constant", made(true, false, false, false, false), true, 1,
       TransposedFormId::ConstantRows},
      {"mirror, 4 vectors", made(true, false, false, false, false), false, 4,
       TransposedFormId::Rows},
      {"tiles", made(false, true, false, false, false), false, 1, TransposedFormId::Tiles},
      {"tiles, constant", made(false, true, false, false, false), true, 4, TransposedFormId::Tiles},
      {"products, constant", made(false, false, true, false, false), true, 1,
       TransposedFormId::ConstantRows},
      {"scatter, constant", made(false, false, false, false, true), true, 1,
       TransposedFormId::ConstantRows},
      {"Auto's products, 1 vector", made(false, false, true, false, false), false, 1,
       TransposedFormId::Products},
      {"Auto's products, 2 vectors", made(false, false, true, false, false), false, 2,
       TransposedFormId::Rows},
      {"asked products, 3 vectors", made(false, false, true, true, false), false, 3,
       TransposedFormId::Products},
      {"scatter, 1 vector", made(false, false, false, false, true), false, 1,
       TransposedFormId::Scatter},
      {"scatter, 8 vectors", made(false, false, false, false, true), false, 8,
       TransposedFormId::Scatter},
      {"rows", made(false, false, false, false, false), false, 1, TransposedFormId::Rows},
      {"rows, constant", made(false, false, false, false, false), true, 2,
       TransposedFormId::ConstantRows},
  };
  for (const FormCase& c : cases) {
    EXPECT_EQ(std::string(to_string(transposed_form(c.choices, c.values_constant, c.vectors))),
              to_string(c.expected))
        << c.name;
  }
}

}  // namespace
}  // namespace kspmv::cuda::detail
