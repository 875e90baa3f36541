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

template <typename T> class Array {
public:
  explicit Array(size_t N = 0)
      : Data(static_cast<T *>(reportCalloc(N ? N : 1, sizeof(T)))), Size(N) {}
  ~Array() { reportFree(Data); }
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  // Replaces the contents with N zero-filled elements; false when out of
  // memory (the array is then empty).
  bool reset(size_t N) {
    reportFree(Data);
    Data = static_cast<T *>(reportCalloc(N ? N : 1, sizeof(T)));
    Size = Data ? N : 0;
    return Data;
  }
  T &operator[](size_t I) { return Data[I]; }
  const T &operator[](size_t I) const { return Data[I]; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }
  size_t size() const { return Size; }
  explicit operator bool() const { return Data; }

private:
  T *Data;
  size_t Size;
};

// One heapsort for every element type (spiketrap_sort.cpp): no std::sort
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
