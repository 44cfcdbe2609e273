#pragma once
// kspmv inside Tpetra: a Tpetra::Operator over a fill-complete Tpetra::CrsMatrix that does what
// CrsMatrix::apply does (the matrix's own Import of X into its column Map, Export of the result
// for the transposed modes, beta semantics) with the local product on kspmv::spmv, through a
// handle the operator keeps. On a Node whose execution space is Kokkos::Cuda that is kspmv's CUDA
// backend; elsewhere Kokkos Kernels, as in Tpetra itself.
//
//   auto op = kspmv::tpetra::make_operator(A);          // Teuchos::RCP<const matrix>
//   op->apply(X, Y, Teuchos::TRANS, alpha, beta);      // or hand op to Belos

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Operator.hpp>

#include <memory>
#include <string>

#include <kspmv/errors.hpp>
#include <kspmv/handle.hpp>
#include <kspmv/spmv.hpp>

namespace kspmv::tpetra {

template <class Scalar = Tpetra::Operator<>::scalar_type,
          class LocalOrdinal = typename Tpetra::Operator<Scalar>::local_ordinal_type,
          class GlobalOrdinal =
              typename Tpetra::Operator<Scalar, LocalOrdinal>::global_ordinal_type,
          class Node = typename Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal>::node_type>
class CrsOperator final : public Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal, Node> {
 public:
  using matrix_type = Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
  using multivector_type = Tpetra::MultiVector<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
  using map_type = Tpetra::Map<LocalOrdinal, GlobalOrdinal, Node>;
  using local_matrix_type = typename matrix_type::local_matrix_device_type;
  using execution_space = typename Node::execution_space;
  using handle_type = kspmv::Handle<local_matrix_type, execution_space>;

  // Throws kspmv::unsupported_argument for a null matrix or one that is not fill-complete, and
  // for an algorithm the backend of Node's execution space lacks.
  explicit CrsOperator(Teuchos::RCP<const matrix_type> A, Algorithm algorithm = Algorithm::Auto)
      : A_(std::move(A)), algorithm_(algorithm), handle_(std::make_unique<handle_type>(algorithm)) {
    if (A_.is_null()) {
      throw unsupported_argument("kspmv::tpetra::CrsOperator: the matrix is null");
    }
    if (!A_->isFillComplete()) {
      throw unsupported_argument(
          "kspmv::tpetra::CrsOperator: the matrix is not fill-complete (call fillComplete() "
          "first, and again after resumeFill())");
    }
  }

  Teuchos::RCP<const map_type> getDomainMap() const override { return A_->getDomainMap(); }
  Teuchos::RCP<const map_type> getRangeMap() const override { return A_->getRangeMap(); }
  bool hasTransposeApply() const override { return true; }

  const matrix_type& matrix() const { return *A_; }
  // The handle of the local products: the algorithm it chose, its setup time.
  const handle_type& handle() const { return *handle_; }

  // Y = beta Y + alpha op(A) X, op(A) = A, A^T or A^H. beta == 0 overwrites Y (NaN included).
  // Throws kspmv::dimension_mismatch, collectively, when X's or Y's Map is not op(A)'s domain or
  // range Map or their numbers of vectors differ; nothing is computed then.
  void apply(const multivector_type& X, multivector_type& Y,
             Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override {
    check_operands(X, Y, mode);
    const Scalar zero = Teuchos::ScalarTraits<Scalar>::zero();
    if (alpha == zero) {
      if (beta == zero) {
        Y.putScalar(zero);
      } else if (beta != Teuchos::ScalarTraits<Scalar>::one()) {
        Y.scale(beta);
      }
      return;
    }
    // A Y replicated on every rank is summed over the ranks at the end: only rank 0 keeps beta Y.
    const bool replicated = !Y.isDistributed() && A_->getComm()->getSize() != 1;
    if (replicated && A_->getComm()->getRank() > 0) beta = zero;
    if (mode == Teuchos::NO_TRANS) {
      apply_forward(X, Y, alpha, beta);
    } else {
      apply_transposed(X, Y, mode, alpha, beta);
    }
    if (replicated) Y.reduce();
  }

 private:
  // A^T's import is A's export and the other way round: the transposed modes run the same
  // communication backwards, as Tpetra does.
  void apply_forward(const multivector_type& X, multivector_type& Y, Scalar alpha,
                     Scalar beta) const {
    const auto importer = A_->getGraph()->getImporter();
    const auto exporter = A_->getGraph()->getExporter();
    const multivector_type* X_col = &X;
    if (!importer.is_null() || !X.isConstantStride()) {
      auto& column = scratch(column_map_vectors_, A_->getColMap(), X.getNumVectors());
      if (importer.is_null()) {
        Tpetra::deep_copy(column, X);
      } else {
        column.doImport(X, *importer, Tpetra::INSERT);
      }
      X_col = &column;
    }
    if (!exporter.is_null()) {
      auto& row = scratch(row_map_vectors_, A_->getRowMap(), X.getNumVectors());
      local_apply(*X_col, row, Teuchos::NO_TRANS, alpha, zero());
      scale_or_zero(Y, beta);
      Y.doExport(row, *exporter, Tpetra::ADD_ASSIGN);
    } else {
      apply_into(*X_col, Y, Teuchos::NO_TRANS, alpha, beta, A_->getRowMap());
    }
  }

  void apply_transposed(const multivector_type& X, multivector_type& Y, Teuchos::ETransp mode,
                        Scalar alpha, Scalar beta) const {
    const auto importer = A_->getGraph()->getImporter();
    const auto exporter = A_->getGraph()->getExporter();
    const multivector_type* X_row = &X;
    if (!exporter.is_null() || !X.isConstantStride()) {
      auto& row = scratch(row_map_vectors_, A_->getRowMap(), X.getNumVectors());
      if (exporter.is_null()) {
        Tpetra::deep_copy(row, X);
      } else {
        row.doImport(X, *exporter, Tpetra::INSERT);
      }
      X_row = &row;
    }
    if (!importer.is_null()) {
      auto& column = scratch(column_map_vectors_, A_->getColMap(), X.getNumVectors());
      local_apply(*X_row, column, mode, alpha, zero());
      scale_or_zero(Y, beta);
      Y.doExport(column, *importer, Tpetra::ADD_ASSIGN);
    } else {
      apply_into(*X_row, Y, mode, alpha, beta, A_->getColMap());
    }
  }

  // The local product straight into Y, unless Y is strided or is X: then through a copy.
  void apply_into(const multivector_type& X, multivector_type& Y, Teuchos::ETransp mode,
                  Scalar alpha, Scalar beta, const Teuchos::RCP<const map_type>& map) const {
    if (Y.isConstantStride() && &X != &Y) {
      local_apply(X, Y, mode, alpha, beta);
      return;
    }
    multivector_type copy(map, Y.getNumVectors(), false);
    if (beta != zero()) Tpetra::deep_copy(copy, Y);
    local_apply(X, copy, mode, alpha, beta);
    Tpetra::deep_copy(Y, copy);
  }

  void local_apply(const multivector_type& X, multivector_type& Y, Teuchos::ETransp mode,
                   Scalar alpha, Scalar beta) const {
    using impl_scalar = typename multivector_type::impl_scalar_type;
    const auto& A_local = A_->getLocalMatrixDevice();
    // A matrix refilled since the last call may have new arrays: a new handle then.
    if (A_local.graph.row_map.data() != bound_row_map_ ||
        A_local.graph.entries.data() != bound_entries_) {
      handle_ = std::make_unique<handle_type>(algorithm_);
      bound_row_map_ = A_local.graph.row_map.data();
      bound_entries_ = A_local.graph.entries.data();
    }
    const auto X_local = X.getLocalViewDevice(Tpetra::Access::ReadOnly);
    const auto Y_local = beta == zero() ? Y.getLocalViewDevice(Tpetra::Access::OverwriteAll)
                                        : Y.getLocalViewDevice(Tpetra::Access::ReadWrite);
    kspmv::spmv(execution_space(), handle_.get(), mode_name(mode), static_cast<impl_scalar>(alpha),
                A_local, X_local, static_cast<impl_scalar>(beta), Y_local);
  }

  void check_operands(const multivector_type& X, const multivector_type& Y,
                      Teuchos::ETransp mode) const {
    const bool forward = mode == Teuchos::NO_TRANS;
    const auto& x_map = forward ? *A_->getDomainMap() : *A_->getRangeMap();
    const auto& y_map = forward ? *A_->getRangeMap() : *A_->getDomainMap();
    const bool x_fits = X.getMap()->isSameAs(x_map);  // collective: every rank agrees
    const bool y_fits = Y.getMap()->isSameAs(y_map);
    if (x_fits && y_fits && X.getNumVectors() == Y.getNumVectors()) return;
    throw dimension_mismatch(
        std::string("kspmv::tpetra::CrsOperator::apply (mode ") + mode_name(mode) + "): op(A) is " +
        std::to_string(y_map.getGlobalNumElements()) + " x " +
        std::to_string(x_map.getGlobalNumElements()) + ", X has " +
        std::to_string(X.getGlobalLength()) + " rows and " + std::to_string(X.getNumVectors()) +
        " vectors" + (x_fits ? "" : " on another Map than op(A)'s domain") + ", Y has " +
        std::to_string(Y.getGlobalLength()) + " rows and " + std::to_string(Y.getNumVectors()) +
        " vectors" + (y_fits ? "" : " on another Map than op(A)'s range"));
  }

  static const char* mode_name(Teuchos::ETransp mode) {
    return mode == Teuchos::NO_TRANS ? "N" : mode == Teuchos::TRANS ? "T" : "H";
  }
  static Scalar zero() { return Teuchos::ScalarTraits<Scalar>::zero(); }
  static void scale_or_zero(multivector_type& Y, Scalar beta) {
    if (beta == zero()) {
      Y.putScalar(zero());  // NaN in Y must not survive
    } else {
      Y.scale(beta);
    }
  }

  // The Import/Export targets, kept between calls with the same number of vectors.
  static multivector_type& scratch(Teuchos::RCP<multivector_type>& kept,
                                   const Teuchos::RCP<const map_type>& map, std::size_t vectors) {
    if (kept.is_null() || kept->getNumVectors() != vectors) {
      kept = Teuchos::rcp(new multivector_type(map, vectors, false));
    }
    return *kept;
  }

  Teuchos::RCP<const matrix_type> A_;
  Algorithm algorithm_;
  mutable std::unique_ptr<handle_type> handle_;
  mutable const void* bound_row_map_ = nullptr;
  mutable const void* bound_entries_ = nullptr;
  mutable Teuchos::RCP<multivector_type> column_map_vectors_;
  mutable Teuchos::RCP<multivector_type> row_map_vectors_;
};

template <class Scalar, class LocalOrdinal, class GlobalOrdinal, class Node>
Teuchos::RCP<CrsOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>> make_operator(
    const Teuchos::RCP<const Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>>& A,
    Algorithm algorithm = Algorithm::Auto) {
  return Teuchos::rcp(new CrsOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>(A, algorithm));
}

}  // namespace kspmv::tpetra
