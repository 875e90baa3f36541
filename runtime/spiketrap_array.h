//===- spiketrap_array.h - A malloc-backed array ----------------*- C++ -*-===//
//
// The runtime stays free of the C++ library (no std::vector): a fixed-size,
// zero-filled array (spiketrap_alloc.h), for the report's working sets.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_ARRAY_H
#define SPIKETRAP_ARRAY_H

#include "spiketrap_alloc.h"

#include <stddef.h>

namespace __spiketrap {

// What does not depend on the element type, once (spiketrap_alloc.cpp), not
// once per Array<T>.
class ArrayStorage {
protected:
  ArrayStorage(size_t N, size_t ElemSize);
  ~ArrayStorage();
  bool reset(size_t N, size_t ElemSize);
  void *Data;
  size_t Size;
};

template <typename T> class Array : ArrayStorage {
public:
  explicit Array(size_t N = 0) : ArrayStorage(N, sizeof(T)) {}
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  // Replaces the contents with N zero-filled elements; false when out of
  // memory (the array is then empty).
  bool reset(size_t N) { return ArrayStorage::reset(N, sizeof(T)); }
  T &operator[](size_t I) { return data()[I]; }
  const T &operator[](size_t I) const { return data()[I]; }
  T *begin() { return data(); }
  T *end() { return data() + Size; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + Size; }
  size_t size() const { return Size; }
  explicit operator bool() const { return Data; }

private:
  T *data() const { return static_cast<T *>(Data); }
};

// One heapsort for every element type (spiketrap_array.cpp): no std::sort
// instantiation per comparator, no malloc (a report may be written from a
// signal handler). Not stable: Less must order every two distinct elements.
using SortLess = bool (*)(const void *A, const void *B, const void *Ctx);
void heapSort(void *Base, size_t N, size_t Size, SortLess Less,
              const void *Ctx);
template <typename T, typename Fn>
void sortBy(T *Begin, T *End, const Fn &Less) {
  heapSort(
      Begin, size_t(End - Begin), sizeof(T),
      [](const void *A, const void *B, const void *Ctx) {
        return (*static_cast<const Fn *>(Ctx))(*static_cast<const T *>(A),
                                               *static_cast<const T *>(B));
      },
      &Less);
}

} // namespace __spiketrap

#endif // SPIKETRAP_ARRAY_H
