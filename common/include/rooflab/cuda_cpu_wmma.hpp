// nvcuda::wmma (CUDA's warp matrix functions, <mma.h>) on the CPU runtime.
//
// A fragment is a warp's share of a matrix tile: each lane holds
// num_elements of its values in `x`, in a layout CUDA leaves unspecified.
// Here the layout is drawn once per launch and fragment kind (use and shape;
// not the element type, so that converting an accumulator of float into one
// of __half element by element keeps working), so that code which reads
// frag.x[i] as if it knew which element it holds fails on some launch, while
// elementwise work over all of frag.x (scaling, conversion) passes.
//
// Every call is warp-collective, as on a GPU: all 32 lanes of the warp call
// it at the same line with the same arguments, or the launch fails naming
// the call, the line and the lanes (rooflab::cuda_cpu::warp_collective).
// load_matrix_sync and store_matrix_sync check what the CUDA Programming
// Guide requires of their arguments (a 256-bit aligned pointer; ldm a
// multiple of 16 bytes) and touch memory as a warp's 16-byte accesses, the
// lanes taking consecutive pieces of each row (or column): memcheck,
// initcheck, races and the counters see them as the caller's line.
//
// mma_sync computes D = A·B + C with products exact in fp32 (fp16 and bf16
// products are; tf32 inputs keep their top 10 mantissa bits, as the tensor
// cores read them) and sums in fp32 in order of k; a GPU's tensor cores add
// in another order and may round differently, which tests allow for.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>

#include "rooflab/cuda_cpu.hpp"
#include "rooflab/cuda_cpu_half.hpp"

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
}  // namespace precision

// A float rounded to tf32 (10 mantissa bits; to nearest, ties away from
// zero, as cvt.rna.tf32.f32), kept in a float.
inline float __float_to_tf32(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & 0xffffe000u;  // inf and NaN stay
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

namespace detail {

// The matrix a fragment holds: rows × cols.
template <class Use, int M, int N, int K>
struct Shape;
template <int M, int N, int K>
struct Shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K, use = 1;
};
template <int M, int N, int K>
struct Shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N, use = 2;
};
template <int M, int N, int K>
struct Shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N, use = 3;
};

template <class T>
struct Storage {
  using type = T;
};
template <>
struct Storage<precision::tf32> {
  using type = float;
};

template <class T>
inline constexpr bool is_16_bit_input = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class Use, int M, int N, int K, class T, class Layout>
constexpr bool supported() {
  constexpr bool k16 =
      (M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) || (M == 8 && N == 32 && K == 16);
  constexpr bool k8 = M == 16 && N == 16 && K == 8;
  if constexpr (std::is_same_v<Use, accumulator>) {
    return std::is_void_v<Layout> && (k16 || k8) && (std::is_same_v<T, float> || (k16 && std::is_same_v<T, __half>));
  } else {
    constexpr bool layout = std::is_same_v<Layout, row_major> || std::is_same_v<Layout, col_major>;
    return layout && ((k16 && is_16_bit_input<T>) || (k8 && std::is_same_v<T, precision::tf32>));
  }
}

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  static_assert(detail::supported<Use, M, N, K, T, Layout>(),
                "wmma::fragment: the CPU runtime models m16n16k16, m32n8k16 and m8n32k16 with __half or "
                "__nv_bfloat16 inputs (row_major or col_major) and float or __half accumulators (float for "
                "__nv_bfloat16), and m16n16k8 with precision::tf32 inputs and float accumulators");

 public:
  using element_type = T;
  using storage_element_type = typename detail::Storage<T>::type;
  using use = Use;
  using layout = Layout;
  static constexpr int rows = detail::Shape<Use, M, N, K>::rows, cols = detail::Shape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols / 32;
  storage_element_type x[num_elements];
};

namespace detail {

inline std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
  return hash;
}

// Where each lane's elements sit in the fragment's matrix, this launch:
// matrix_index[lane * num_elements + i] is element i of lane `lane`, as
// row * cols + col; slot is the inverse. One per fragment kind.
template <class Use, int Rows, int Cols, class Layout>
struct ElementLayout {
  static constexpr int count = Rows * Cols;
  std::array<std::uint16_t, count> matrix_index, slot;

  static const ElementLayout& this_launch() {
    static thread_local ElementLayout layout;
    static thread_local std::uint64_t drawn_for = 0;
    const std::uint64_t draw = rooflab::cuda_cpu::launch_draw();
    if (drawn_for != draw || draw == 0) {
      const std::uint64_t kind =
          mix(mix(mix(Shape<Use, 16, 16, 16>::use, Rows), Cols), std::is_same_v<Layout, row_major>   ? 1
                                                                 : std::is_same_v<Layout, col_major> ? 2
                                                                                                     : 0);
      std::iota(layout.matrix_index.begin(), layout.matrix_index.end(), std::uint16_t{0});
      std::mt19937_64 engine(mix(draw, kind));
      std::shuffle(layout.matrix_index.begin(), layout.matrix_index.end(), engine);
      for (int p = 0; p < count; ++p) layout.slot[layout.matrix_index[p]] = static_cast<std::uint16_t>(p);
      drawn_for = draw;
    }
    return layout;
  }
};

template <class Fragment>
const auto& layout_of() {
  return ElementLayout<typename Fragment::use, Fragment::rows, Fragment::cols,
                       typename Fragment::layout>::this_launch();
}

// How a warp moves a rows × cols tile of `Element` between memory and its
// fragments: each line (a row in row-major memory, a column in
// column-major) is cut into pieces of up to 16 bytes, and lane l takes
// pieces l, l + 32, … — the accesses a GPU's 128-bit loads and stores make.
template <class Fragment>
struct Tiling {
  using Element = typename Fragment::storage_element_type;
  static constexpr int bytes = Fragment::rows * Fragment::cols * static_cast<int>(sizeof(Element));
  static constexpr int piece_bytes = bytes / 32 < 16 ? bytes / 32 : 16;
  static constexpr int piece_elements = piece_bytes / static_cast<int>(sizeof(Element));
  static constexpr int pieces_per_lane = bytes / 32 / piece_bytes;
  static constexpr int lane_bytes = bytes / 32;
  // The matrix index (row * cols + col) of element e of lane `lane`'s
  // piece j, and the piece's offset in memory, in elements.
  static int matrix_index(int lane, int j, int e, bool row_major_memory) {
    const int line_length = row_major_memory ? Fragment::cols : Fragment::rows;
    const int piece = j * 32 + lane, per_line = line_length / piece_elements;
    const int line = piece / per_line, along = piece % per_line * piece_elements + e;
    return row_major_memory ? line * Fragment::cols + along : along * Fragment::cols + line;
  }
  static std::size_t offset(int lane, int j, bool row_major_memory, unsigned ldm) {
    const int line_length = row_major_memory ? Fragment::cols : Fragment::rows;
    const int piece = j * 32 + lane, per_line = line_length / piece_elements;
    return static_cast<std::size_t>(piece / per_line) * ldm +
           static_cast<std::size_t>(piece % per_line) * piece_elements;
  }
};

// One lane's part of a load or a store: its pieces as they are in memory,
// and its fragment.
template <class Fragment>
struct Transfer {
  unsigned char* pieces;
  typename Fragment::storage_element_type* x;
  bool row_major_memory;
};

template <class Fragment>
void scatter_pieces(void* const* lane_data, unsigned mask) {
  using Element = typename Fragment::storage_element_type;
  using T = Tiling<Fragment>;
  const auto& layout = layout_of<Fragment>();
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    const auto& from = *static_cast<const Transfer<Fragment>*>(lane_data[lane]);
    for (int j = 0; j < T::pieces_per_lane; ++j)
      for (int e = 0; e < T::piece_elements; ++e) {
        const int slot = layout.slot[T::matrix_index(lane, j, e, from.row_major_memory)];
        auto& to = *static_cast<const Transfer<Fragment>*>(lane_data[slot / Fragment::num_elements]);
        std::memcpy(&to.x[slot % Fragment::num_elements], from.pieces + (j * T::piece_elements + e) * sizeof(Element),
                    sizeof(Element));
      }
  }
}

template <class Fragment>
void gather_pieces(void* const* lane_data, unsigned mask) {
  using Element = typename Fragment::storage_element_type;
  using T = Tiling<Fragment>;
  const auto& layout = layout_of<Fragment>();
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    const auto& to = *static_cast<const Transfer<Fragment>*>(lane_data[lane]);
    for (int j = 0; j < T::pieces_per_lane; ++j)
      for (int e = 0; e < T::piece_elements; ++e) {
        const int slot = layout.slot[T::matrix_index(lane, j, e, to.row_major_memory)];
        const auto& from = *static_cast<const Transfer<Fragment>*>(lane_data[slot / Fragment::num_elements]);
        std::memcpy(to.pieces + (j * T::piece_elements + e) * sizeof(Element), &from.x[slot % Fragment::num_elements],
                    sizeof(Element));
      }
  }
}

template <class Fragment>
void load(Fragment& fragment, const typename Fragment::storage_element_type* pointer, unsigned ldm,
          bool row_major_memory, const void* pc) {
  using T = Tiling<Fragment>;
  constexpr const char* what = "wmma::load_matrix_sync";
  rooflab::cuda_cpu::check_matrix_tile(what, 2, pointer, ldm, sizeof(typename Fragment::storage_element_type), pc);
  alignas(16) unsigned char pieces[T::lane_bytes];
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  for (int j = 0; j < T::pieces_per_lane; ++j)
    rooflab::cuda_cpu::access_for(pc, pieces + j * T::piece_bytes, pointer + T::offset(lane, j, row_major_memory, ldm),
                                  T::piece_bytes, /*write=*/false);
  Transfer<Fragment> transfer{pieces, fragment.x, row_major_memory};
  const rooflab::cuda_cpu::WarpCollective operation{
      what, pc, mix(mix(reinterpret_cast<std::uintptr_t>(pointer), ldm), row_major_memory), "pointer, ldm, layout",
      &scatter_pieces<Fragment>};
  rooflab::cuda_cpu::warp_collective(operation, 0xffffffffu, &transfer);
}

template <class Fragment>
void store(typename Fragment::storage_element_type* pointer, const Fragment& fragment, unsigned ldm,
           bool row_major_memory, const void* pc) {
  using T = Tiling<Fragment>;
  constexpr const char* what = "wmma::store_matrix_sync";
  rooflab::cuda_cpu::check_matrix_tile(what, 1, pointer, ldm, sizeof(typename Fragment::storage_element_type), pc);
  alignas(16) unsigned char pieces[T::lane_bytes];
  Transfer<Fragment> transfer{pieces, const_cast<typename Fragment::storage_element_type*>(fragment.x),
                              row_major_memory};
  const rooflab::cuda_cpu::WarpCollective operation{
      what, pc, mix(mix(reinterpret_cast<std::uintptr_t>(pointer), ldm), row_major_memory), "pointer, ldm, layout",
      &gather_pieces<Fragment>};
  rooflab::cuda_cpu::warp_collective(operation, 0xffffffffu, &transfer);
  const int lane = static_cast<int>(rooflab::cuda_cpu::this_lane());
  for (int j = 0; j < T::pieces_per_lane; ++j)
    rooflab::cuda_cpu::access_for(pc, pointer + T::offset(lane, j, row_major_memory, ldm), pieces + j * T::piece_bytes,
                                  T::piece_bytes, /*write=*/true);
}

// An input element as the tensor cores read it.
inline float input_value(__half value) { return __half2float(value); }
inline float input_value(__nv_bfloat16 value) { return __bfloat162float(value); }
inline float input_value(float tf32) {  // the top 19 bits: sign, exponent, 10 mantissa bits
  std::uint32_t bits;
  std::memcpy(&bits, &tf32, sizeof bits);
  bits &= 0xffffe000u;
  std::memcpy(&tf32, &bits, sizeof bits);
  return tf32;
}
inline float accumulator_value(float value) { return value; }
inline float accumulator_value(__half value) { return __half2float(value); }
inline void set_accumulator(float& to, float value) { to = value; }
inline void set_accumulator(__half& to, float value) { to = __float2half_rn(value); }

template <class D, class A, class B, class C>
struct Product {
  const A* a;
  const B* b;
  const C* c;
  D* d;
};

template <class D, class A, class B, class C>
void multiply(void* const* lane_data, unsigned mask) {
  constexpr int M = A::rows, K = A::cols, N = B::cols;
  const auto& a_layout = layout_of<A>();
  const auto& b_layout = layout_of<B>();
  const auto& c_layout = layout_of<C>();
  const auto& d_layout = layout_of<D>();
  const auto lane_of = [&](int slot, int per_lane) -> const Product<D, A, B, C>& {
    return *static_cast<const Product<D, A, B, C>*>(lane_data[slot / per_lane]);
  };
  float a[M * K], b[K * N], sum[M * N];
  for (int index = 0; index < M * K; ++index) {
    const int slot = a_layout.slot[index];
    a[index] = input_value(lane_of(slot, A::num_elements).a->x[slot % A::num_elements]);
  }
  for (int index = 0; index < K * N; ++index) {
    const int slot = b_layout.slot[index];
    b[index] = input_value(lane_of(slot, B::num_elements).b->x[slot % B::num_elements]);
  }
  for (int index = 0; index < M * N; ++index) {
    const int slot = c_layout.slot[index];
    sum[index] = accumulator_value(lane_of(slot, C::num_elements).c->x[slot % C::num_elements]);
  }
  for (int row = 0; row < M; ++row)
    for (int col = 0; col < N; ++col)
      for (int k = 0; k < K; ++k) sum[row * N + col] += a[row * K + k] * b[k * N + col];  // each product exact
  // D may be C: written only now, after every input was read.
  for (int index = 0; index < M * N; ++index) {
    const int slot = d_layout.slot[index];
    set_accumulator(lane_of(slot, D::num_elements).d->x[slot % D::num_elements], sum[index]);
  }
  rooflab::cuda_cpu::count_tensor_core_operation(2ull * M * N * K);
  (void)mask;  // the whole warp
}

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout, class V>
void fill_fragment(fragment<Use, M, N, K, T, Layout>& fragment, const V& value) {
  using Storage = typename nvcuda::wmma::fragment<Use, M, N, K, T, Layout>::storage_element_type;
  const Storage stored = static_cast<Storage>(value);
  for (auto& element : fragment.x) element = stored;
}

#define ROOFLAB_CALLER_PC __builtin_extract_return_addr(__builtin_return_address(0))

// matrix_a and matrix_b: their layout is the fragment's.
template <class Use, int M, int N, int K, class T, class Layout>
[[gnu::noinline]] void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& fragment,
                                        const typename detail::Storage<T>::type* pointer, unsigned ldm) {
  static_assert(!std::is_same_v<Use, accumulator>, "an accumulator's load_matrix_sync takes a layout_t");
  detail::load(fragment, pointer, ldm, std::is_same_v<Layout, row_major>, ROOFLAB_CALLER_PC);
}

template <int M, int N, int K, class T>
[[gnu::noinline]] void load_matrix_sync(fragment<accumulator, M, N, K, T>& fragment, const T* pointer, unsigned ldm,
                                        layout_t layout) {
  detail::load(fragment, pointer, ldm, layout == mem_row_major, ROOFLAB_CALLER_PC);
}

template <int M, int N, int K, class T>
[[gnu::noinline]] void store_matrix_sync(T* pointer, const fragment<accumulator, M, N, K, T>& fragment, unsigned ldm,
                                         layout_t layout) {
  detail::store(pointer, fragment, ldm, layout == mem_row_major, ROOFLAB_CALLER_PC);
}

template <int M, int N, int K, class In, class LayoutA, class LayoutB, class TC, class TD>
[[gnu::noinline]] void mma_sync(fragment<accumulator, M, N, K, TD>& d,
                                const fragment<matrix_a, M, N, K, In, LayoutA>& a,
                                const fragment<matrix_b, M, N, K, In, LayoutB>& b,
                                const fragment<accumulator, M, N, K, TC>& c) {
  static_assert(!std::is_same_v<In, __nv_bfloat16> || (std::is_same_v<TC, float> && std::is_same_v<TD, float>),
                "wmma::mma_sync: __nv_bfloat16 inputs accumulate in float");
  using D = fragment<accumulator, M, N, K, TD>;
  using A = fragment<matrix_a, M, N, K, In, LayoutA>;
  using B = fragment<matrix_b, M, N, K, In, LayoutB>;
  using C = fragment<accumulator, M, N, K, TC>;
  detail::Product<D, A, B, C> product{&a, &b, &c, &d};
  const rooflab::cuda_cpu::WarpCollective operation{"wmma::mma_sync", ROOFLAB_CALLER_PC, 0, "",
                                                    &detail::multiply<D, A, B, C>};
  rooflab::cuda_cpu::warp_collective(operation, 0xffffffffu, &product);
}

#undef ROOFLAB_CALLER_PC

}  // namespace nvcuda::wmma
