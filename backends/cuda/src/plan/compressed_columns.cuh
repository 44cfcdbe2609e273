#pragma once
// The compressed column forms a plan may keep (one file each in formats/), and the step that
// builds the ones Auto's choice lists, in its order, until one is kept. A new form joins
// CompressedForms below.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

#include "device/device_buffer.hpp"
#include "formats/column_deltas.cuh"
#include "formats/column_form.hpp"
#include "formats/form_build.cuh"
#include "formats/own_columns.cuh"
#include "formats/row_patterns.cuh"
#include "kspmv/cuda/operands.hpp"
#include "plan/choice.hpp"

namespace kspmv::cuda::detail {

using CompressedForms = std::tuple<RowPatterns, ColumnDeltas>;

template <class Forms>
struct DeviceArraysOf;
template <class... Forms>
struct DeviceArraysOf<std::tuple<Forms...>> {
  using type = std::tuple<typename Forms::Arrays...>;
};

// Calls f(Form{}) with the form type whose kForm is `form` (OwnColumns for ColumnForm::Own).
template <class F>
void with_form(ColumnForm form, F&& f) {
  if (form == ColumnForm::Own) {
    f(OwnColumns{});
    return;
  }
  std::apply([&](auto... forms) { ((forms.kForm == form ? f(forms) : void()), ...); },
             CompressedForms{});
}

// The compressed copy of A's columns a plan keeps (form Own where it keeps none), and what
// describe() says of it.
class CompressedColumns {
 public:
  ColumnForm form() const { return form_; }
  template <class Form>
  typename Form::Arrays arrays() const {
    return std::get<typename Form::Arrays>(arrays_);
  }
  std::size_t bytes() const { return memory_.size(); }
  const std::string& note() const { return note_; }
  // Bytes of columns one one-vector call reads in the kept form.
  std::size_t column_bytes(std::int64_t rows, std::int64_t entries,
                           std::size_t ordinal_bytes) const {
    std::size_t bytes = static_cast<std::size_t>(entries) * ordinal_bytes;
    with_form(form_, [&](auto form) {
      if constexpr (decltype(form)::kForm != ColumnForm::Own) {
        bytes = decltype(form)::column_bytes(rows, entries, escaped_entries_, ordinal_bytes);
      }
    });
    return bytes;
  }

  // The plan's scratch the forms' samples need (the largest of theirs).
  static std::size_t sample_bytes(std::int64_t rows) {
    return std::apply(
        [&](auto... forms) { return std::max({decltype(forms)::sample_bytes(rows)...}); },
        CompressedForms{});
  }

  // Tries the forms `choice` lists, in order, on A's structure; keeps the first that is built and
  // kept, else notes why none was. `held`: the plan's other device memory (the workspace limit
  // counts it); `scratch`: sample_bytes(rows) of the plan's, null where the workspace limit left
  // none. Waits for the stream.
  template <class Matrix>
  void keep(const PlanInputs& inputs, const Choice& choice, const Matrix& A, std::size_t held,
            unsigned char* scratch, cudaStream_t stream) {
    if (choice.column_forms.empty()) {
      note_ = choice.own_columns_note;
      return;
    }
    std::string refusals;
    for (const ColumnForm form : choice.column_forms) {
      std::string refusal;
      with_form(form, [&](auto form_type) {
        if constexpr (decltype(form_type)::kForm != ColumnForm::Own) {
          refusal = try_form<decltype(form_type)>(inputs, A, held, scratch, stream);
        }
      });
      if (refusal.empty()) {
        if (!refusals.empty()) note_ += " (not " + refusals + ")";
        return;
      }
      refusals += (refusals.empty() ? "" : "; ") + std::string(form_name(form)) + ": " + refusal;
    }
    note_ = "A's own (" + refusals + ")";
  }

 private:
  static constexpr const char* kCompressedCalls =
      "for one-vector calls in modes N and C, and in T and H where A^T mirrors A and the values "
      "are declared constant";

  // "" where `Form` was built and kept, else why not.
  template <class Form, class Matrix>
  std::string try_form(const PlanInputs& inputs, const Matrix& A, std::size_t held,
                       unsigned char* scratch, cudaStream_t stream) {
    const std::int64_t rows = inputs.matrix.rows;
    const std::int64_t entries = inputs.matrix.entries;
    const std::size_t bytes = Form::build_bytes(rows, entries);
    std::string refusal = refusal_before_build(inputs, Form::kForm, bytes, held);
    if (!refusal.empty()) return refusal;
    if (scratch == nullptr && Form::sample_bytes(rows) > 0) {
      return "its sample of " + std::to_string(Form::sample_bytes(rows)) +
             " bytes would pass the workspace limit of " +
             std::to_string(inputs.request.workspace_limit);
    }
    const auto memory = form_memory(scratch, [&] {
      memory_ = DeviceBuffer<unsigned char>(bytes);
      return memory_.data();
    });
    auto build = Form::build(A.row_map, A.entries, rows, entries, memory, stream);
    escaped_entries_ = build.escaped_entries;
    if (build.refusal.empty() && !keeps_escaped(inputs, build.escaped_entries)) {
      build.refusal = Form::escape_refusal(build.escaped_entries, entries);
    }
    if (!build.refusal.empty()) {
      memory_ = {};
      return build.refusal;
    }
    form_ = Form::kForm;
    std::get<typename Form::Arrays>(arrays_) = build.arrays;
    note_ = build.note + ", " + kCompressedCalls;
    return "";
  }

  ColumnForm form_ = ColumnForm::Own;
  typename DeviceArraysOf<CompressedForms>::type arrays_;
  std::int64_t escaped_entries_ = 0;
  DeviceBuffer<unsigned char> memory_;
  std::string note_;
};

}  // namespace kspmv::cuda::detail
