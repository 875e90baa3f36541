//===- spiketrap_array.cpp - The report's arrays and their one sort -------===//
//
// What Array<T> does whatever T is, once; and one sort: heapsort over bytes
// with a comparator function, O(n log n) in the worst case, no allocation,
// and one copy of the code where std::sort made one per comparator (~10 KB
// of the runtime's text).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_array.h"

namespace __spiketrap {

ArrayStorage::ArrayStorage(size_t N, size_t ElemSize)
    : Data(reportCalloc(N ? N : 1, ElemSize)), Size(N) {}

ArrayStorage::~ArrayStorage() { reportFree(Data); }

bool ArrayStorage::reset(size_t N, size_t ElemSize) {
  reportFree(Data);
  Data = reportCalloc(N ? N : 1, ElemSize);
  Size = Data ? N : 0;
  return Data;
}

namespace {

void swapBytes(char *A, char *B, size_t Size) {
  for (size_t I = 0; I < Size; ++I) {
    char T = A[I];
    A[I] = B[I];
    B[I] = T;
  }
}

// Moves element Root down the heap of the first N elements.
void siftDown(char *Base, size_t Root, size_t N, size_t Size, SortLess Less,
              const void *Ctx) {
  for (size_t Child; (Child = 2 * Root + 1) < N; Root = Child) {
    if (Child + 1 < N &&
        Less(Base + Child * Size, Base + (Child + 1) * Size, Ctx))
      ++Child;
    if (!Less(Base + Root * Size, Base + Child * Size, Ctx))
      return;
    swapBytes(Base + Root * Size, Base + Child * Size, Size);
  }
}

} // namespace

void heapSort(void *Data, size_t N, size_t Size, SortLess Less,
              const void *Ctx) {
  char *Base = static_cast<char *>(Data);
  for (size_t I = N / 2; I-- > 0;)
    siftDown(Base, I, N, Size, Less, Ctx);
  for (size_t End = N; End > 1; --End) {
    swapBytes(Base, Base + (End - 1) * Size, Size);
    siftDown(Base, 0, End - 1, Size, Less, Ctx);
  }
}

} // namespace __spiketrap
