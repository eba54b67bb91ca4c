// What every Thrust file of the course does: a `__host__ __device__` functor
// over a counting iterator, here on Thrust's OpenMP device system, compiled by
// the host compiler (thrust_host_device_test.cmake).
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace {

struct Doubler {
  int* out;
  __host__ __device__ void operator()(int i) const { out[i] = 2 * i; }
};

}  // namespace

int main() {
  thrust::device_vector<int> out(8);
  thrust::for_each(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(8),
                   Doubler{thrust::raw_pointer_cast(out.data())});
  return out[7] == 14 ? 0 : 1;
}
