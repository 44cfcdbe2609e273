#pragma once
/// @file
/// kspmv inside Tpetra: kspmv::tpetra::CrsOperator and kspmv::tpetra::make_operator
/// (`find_package(kspmv COMPONENTS tpetra)`, target kspmv::tpetra). A Tpetra::Operator over a
/// fill-complete Tpetra::CrsMatrix that does what CrsMatrix::apply does (the matrix's own Import of
/// X into its column Map, Export of the result for the transposed modes, beta semantics) with the
/// local product on kspmv::spmv, through a handle the operator keeps. On a Node whose execution
/// space is Kokkos::Cuda that is kspmv's CUDA backend; elsewhere Kokkos Kernels, as in Tpetra
/// itself.
///
/// @code
/// auto op = kspmv::tpetra::make_operator(A);          // Teuchos::RCP<[const] matrix>
/// op->apply(X, Y, Teuchos::TRANS, alpha, beta);      // or hand op to Belos
/// @endcode
///
/// In mode N with one vector and a non-trivial Import, the rows that need no remote entry of X are
/// multiplied while the Import is in flight (interior_rows.hpp); set_overlap(false) turns that off.

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Operator.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <kspmv/errors.hpp>
#include <kspmv/handle.hpp>
#include <kspmv/spmv.hpp>
#include <kspmv/tpetra/interior_rows.hpp>

namespace kspmv::tpetra {

/// A Tpetra::Operator whose apply() is CrsMatrix::apply's, with the local product on
/// kspmv::spmv. Made by kspmv::tpetra::make_operator. It keeps the matrix (by RCP), the handle of
/// its local products and the Import/Export targets between calls; a matrix refilled with new
/// arrays gets a new handle at the next call.
/// @tparam Scalar, LocalOrdinal, GlobalOrdinal, Node the matrix's, as Tpetra's defaults are.
template <class Scalar = Tpetra::Operator<>::scalar_type,
          class LocalOrdinal = typename Tpetra::Operator<Scalar>::local_ordinal_type,
          class GlobalOrdinal =
              typename Tpetra::Operator<Scalar, LocalOrdinal>::global_ordinal_type,
          class Node = typename Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal>::node_type>
class CrsOperator final : public Tpetra::Operator<Scalar, LocalOrdinal, GlobalOrdinal, Node> {
 public:
  /// The distributed matrix A.
  using matrix_type = Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
  /// X and Y.
  using multivector_type = Tpetra::MultiVector<Scalar, LocalOrdinal, GlobalOrdinal, Node>;
  /// The Maps of A's domain and range.
  using map_type = Tpetra::Map<LocalOrdinal, GlobalOrdinal, Node>;
  /// A rank's local matrix (a KokkosSparse::CrsMatrix), which kspmv::spmv multiplies.
  using local_matrix_type = typename matrix_type::local_matrix_device_type;
  /// Node's execution space: the local products run on its default instance.
  using execution_space = typename Node::execution_space;
  /// The handle of the local products.
  using handle_type = kspmv::Handle<local_matrix_type, execution_space>;

  /// Wraps a matrix; kspmv::tpetra::make_operator makes the same behind a Teuchos::RCP.
  /// @param A the matrix, fill-complete; the operator keeps it and only reads it.
  /// @param algorithm the algorithm of the local products' handles (kspmv::Handle).
  /// @throws kspmv::unsupported_argument for a null matrix or one that is not fill-complete, and
  ///   for an algorithm the backend of Node's execution space lacks.
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

  /// @return A's domain Map: X's in mode N, Y's in modes T and H.
  Teuchos::RCP<const map_type> getDomainMap() const override { return A_->getDomainMap(); }
  /// @return A's range Map: Y's in mode N, X's in modes T and H.
  Teuchos::RCP<const map_type> getRangeMap() const override { return A_->getRangeMap(); }
  /// @return true: apply() takes Teuchos::TRANS and Teuchos::CONJ_TRANS.
  bool hasTransposeApply() const override { return true; }

  /// @return the matrix A.
  const matrix_type& matrix() const { return *A_; }
  /// Whether mode N with one vector multiplies the rows that need no remote X during the Import
  /// (default: it does).
  /// @param overlap false to multiply only after the Import has arrived.
  void set_overlap(bool overlap) { overlap_ = overlap; }
  /// @return whether mode N with one vector multiplies during the Import (set_overlap()).
  bool overlap() const { return overlap_; }
  /// The handle of the local products: the algorithm it chose, its setup time. (Overlapped calls
  /// multiply three ranges of rows, each through a handle of its own.)
  /// @return the handle.
  const handle_type& handle() const { return *handle_; }

  /// Y = beta Y + alpha op(A) X, op(A) = A, A^T or A^H. beta == 0 overwrites Y (NaN included).
  /// Collective: every rank of A's communicator calls it.
  /// @param X the vectors multiplied: on op(A)'s domain Map (A's domain Map in mode N, its range
  ///   Map in modes T and H).
  /// @param Y the result: on op(A)'s range Map, with as many vectors as X.
  /// @param mode Teuchos::NO_TRANS, Teuchos::TRANS or Teuchos::CONJ_TRANS.
  /// @param alpha the factor of op(A) X; alpha == 0 reads neither A nor X.
  /// @param beta the factor of Y.
  /// @throws kspmv::dimension_mismatch on every rank when X's or Y's Map is not op(A)'s domain or
  ///   range Map or their numbers of vectors differ; nothing is computed then.
  void apply(const multivector_type& X, multivector_type& Y,
             Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override {
    check_operands(X, Y, mode);
    if (alpha == zero()) {
      if (beta == zero()) {
        Y.putScalar(zero());
      } else if (beta != Teuchos::ScalarTraits<Scalar>::one()) {
        Y.scale(beta);
      }
      return;
    }
    // A Y replicated on every rank is summed over the ranks at the end: only rank 0 keeps beta Y.
    const bool replicated = !Y.isDistributed() && A_->getComm()->getSize() != 1;
    if (replicated && A_->getComm()->getRank() > 0) beta = zero();
    const auto& graph = *A_->getGraph();
    if (mode == Teuchos::NO_TRANS && !replicated && overlaps(X, Y)) {
      apply_overlapped(X, Y, alpha, beta);
    } else if (mode == Teuchos::NO_TRANS) {
      apply_between(X, Y, mode, alpha, beta, graph.getImporter(), A_->getColMap(),
                    column_map_vectors_, graph.getExporter(), A_->getRowMap(), row_map_vectors_);
    } else {
      apply_between(X, Y, mode, alpha, beta, graph.getExporter(), A_->getRowMap(), row_map_vectors_,
                    graph.getImporter(), A_->getColMap(), column_map_vectors_);
    }
    if (replicated) Y.reduce();
  }

 private:
  // X brought to the Map op(A)'s local product reads (`gather`: A's Import in mode N, its Export
  // run backwards in T and H, as Tpetra does), the local product, and its result sent to Y's Map
  // (`scatter`: A's Export, or its Import backwards) and added to beta Y. Either may be null: the
  // Maps are then the same.
  template <class Gather, class Scatter>
  void apply_between(const multivector_type& X, multivector_type& Y, Teuchos::ETransp mode,
                     Scalar alpha, Scalar beta, const Teuchos::RCP<const Gather>& gather,
                     const Teuchos::RCP<const map_type>& gathered_map,
                     Teuchos::RCP<multivector_type>& gathered_vectors,
                     const Teuchos::RCP<const Scatter>& scatter,
                     const Teuchos::RCP<const map_type>& product_map,
                     Teuchos::RCP<multivector_type>& product_vectors) const {
    const multivector_type* X_local = &X;
    if (!gather.is_null() || !X.isConstantStride()) {
      auto& gathered = kept(gathered_vectors, gathered_map, X.getNumVectors());
      if (gather.is_null()) {
        Tpetra::deep_copy(gathered, X);
      } else {
        gathered.doImport(X, *gather, Tpetra::INSERT);
      }
      X_local = &gathered;
    }
    if (scatter.is_null()) {
      apply_into(*X_local, Y, mode, alpha, beta, product_map);
      return;
    }
    auto& product = kept(product_vectors, product_map, X.getNumVectors());
    local_apply(*X_local, product, mode, alpha, zero());
    if (beta == zero()) {
      Y.putScalar(zero());  // NaN in Y must not survive
    } else {
      Y.scale(beta);
    }
    Y.doExport(product, *scatter, Tpetra::ADD_ASSIGN);
  }

  // Mode N where the Import is non-trivial and the result needs no Export; one vector, so that the
  // ranges of rows of X and Y are contiguous Views (several would be strided).
  bool overlaps(const multivector_type& X, const multivector_type& Y) const {
    const auto& graph = *A_->getGraph();
    return overlap_ && X.getNumVectors() == 1 && !graph.getImporter().is_null() &&
           graph.getExporter().is_null() && X.isConstantStride() && Y.isConstantStride() &&
           &X != &Y;
  }

  // The interior rows' product while X's remote entries arrive, then the other rows'. Each row is
  // summed by one product, as in the product of the whole matrix.
  void apply_overlapped(const multivector_type& X, multivector_type& Y, Scalar alpha,
                        Scalar beta) const {
    using impl_scalar = typename multivector_type::impl_scalar_type;
    const auto& importer = *A_->getGraph()->getImporter();
    const auto& A_local = A_->getLocalMatrixDevice();
    if (!interior_rows_ || !interior_rows_->made_for(A_local)) {
      interior_rows_ =
          std::make_unique<interior_rows_type>(A_local, importer.getNumSameIDs(), algorithm_);
    }
    auto& gathered = kept(column_map_vectors_, A_->getColMap(), 1);
    gathered.beginImport(X, importer, Tpetra::INSERT);
    const auto Y_local = beta == zero() ? Y.getLocalViewDevice(Tpetra::Access::OverwriteAll)
                                        : Y.getLocalViewDevice(Tpetra::Access::ReadWrite);
    const auto product = [&](typename interior_rows_type::Range& range, const auto& x) {
      if (range.empty()) return;
      const auto rows = std::make_pair(range.first, range.last);
      kspmv::spmv(execution_space(), range.handle.get(), "N", static_cast<impl_scalar>(alpha),
                  range.rows, x, static_cast<impl_scalar>(beta), Kokkos::subview(Y_local, rows, 0));
    };
    {
      const auto X_local = X.getLocalViewDevice(Tpetra::Access::ReadOnly);
      const auto same = static_cast<std::size_t>(importer.getNumSameIDs());
      product(interior_rows_->interior(),
              Kokkos::subview(X_local, std::make_pair(std::size_t{0}, same), 0));
    }
    gathered.endImport(X, importer, Tpetra::INSERT);
    const auto X_gathered = gathered.getLocalViewDevice(Tpetra::Access::ReadOnly);
    product(interior_rows_->before(), Kokkos::subview(X_gathered, Kokkos::ALL(), 0));
    product(interior_rows_->after(), Kokkos::subview(X_gathered, Kokkos::ALL(), 0));
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
  // The Import/Export targets, kept between calls with the same number of vectors.
  static multivector_type& kept(Teuchos::RCP<multivector_type>& vectors,
                                const Teuchos::RCP<const map_type>& map, std::size_t count) {
    if (vectors.is_null() || vectors->getNumVectors() != count) {
      vectors = Teuchos::rcp(new multivector_type(map, count, false));
    }
    return *vectors;
  }

  using interior_rows_type = detail::InteriorRows<local_matrix_type, execution_space>;

  Teuchos::RCP<const matrix_type> A_;
  Algorithm algorithm_;
  bool overlap_ = true;
  mutable std::unique_ptr<interior_rows_type> interior_rows_;
  mutable std::unique_ptr<handle_type> handle_;
  mutable const void* bound_row_map_ = nullptr;
  mutable const void* bound_entries_ = nullptr;
  mutable Teuchos::RCP<multivector_type> column_map_vectors_;
  mutable Teuchos::RCP<multivector_type> row_map_vectors_;
};

/// Makes the kspmv::tpetra::CrsOperator of a matrix.
/// @tparam Scalar, LocalOrdinal, GlobalOrdinal, Node the matrix's.
/// @param A the matrix, fill-complete.
/// @param algorithm the algorithm of the local products' handles (kspmv::Handle).
/// @return the operator, for Belos or any solver that takes a Tpetra::Operator.
/// @throws kspmv::unsupported_argument as the kspmv::tpetra::CrsOperator constructor: a null
///   matrix, one that is not fill-complete, an algorithm the backend lacks.
template <class Scalar, class LocalOrdinal, class GlobalOrdinal, class Node>
Teuchos::RCP<CrsOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>> make_operator(
    const Teuchos::RCP<const Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>>& A,
    Algorithm algorithm = Algorithm::Auto) {
  return Teuchos::rcp(new CrsOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>(A, algorithm));
}

/// Makes the kspmv::tpetra::CrsOperator of a non-const matrix: the form Tpetra's readers and most
/// applications hold. The operator only reads A.
/// @tparam Scalar, LocalOrdinal, GlobalOrdinal, Node the matrix's.
/// @param A the matrix, fill-complete.
/// @param algorithm the algorithm of the local products' handles (kspmv::Handle).
/// @return the operator, for Belos or any solver that takes a Tpetra::Operator.
/// @throws kspmv::unsupported_argument as the kspmv::tpetra::CrsOperator constructor: a null
///   matrix, one that is not fill-complete, an algorithm the backend lacks.
template <class Scalar, class LocalOrdinal, class GlobalOrdinal, class Node>
Teuchos::RCP<CrsOperator<Scalar, LocalOrdinal, GlobalOrdinal, Node>> make_operator(
    const Teuchos::RCP<Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>>& A,
    Algorithm algorithm = Algorithm::Auto) {
  return kspmv::tpetra::make_operator(
      Teuchos::RCP<const Tpetra::CrsMatrix<Scalar, LocalOrdinal, GlobalOrdinal, Node>>(A),
      algorithm);
}

}  // namespace kspmv::tpetra
