#pragma once

// The slot of a key in the bounds' caches (proof_bound.cpp, proof_captures.cpp,
// proof_rebirth.cpp). Not a public header.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "rebirth/types.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace rebirth {

// Bytes before a zeroed table's entries: its mapping's size (and the entries' alignment).
constexpr std::size_t kZeroedHeader = 64;

// The slot of `key` among `size` slots (a power of two): a multiply-xor hash of its words.
template <std::size_t N>
std::size_t cache_slot(const std::array<Bitboard, N>& key, std::size_t size) {
    std::uint64_t h = 0;
    for (Bitboard k : key) h = (h ^ k) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return static_cast<std::size_t>(h & (size - 1));
}

// A table from zeroed_table, freed by zeroed_free.
template <class Entry>
using ZeroedTable = std::unique_ptr<Entry, void (*)(void*)>;

// Frees a table of zeroed_table (null: nothing).
inline void zeroed_free(void* table) {
    if (!table) return;
    char* base = static_cast<char*>(table) - kZeroedHeader;
#ifdef __linux__
    std::size_t bytes;
    std::memcpy(&bytes, base, sizeof bytes);
    munmap(base, bytes);
#else
    std::free(base);
#endif
}

// `size` entries of all bytes zero (an entry's "empty"). On Linux mapped afresh, so that the
// system zeroes them page by page at first touch: a large table costs only the pages used
// (calloc would clear the whole table when it reuses the memory of one freed before, as the
// searches of successive lengths do). Throws std::bad_alloc when there is no memory.
template <class Entry>
ZeroedTable<Entry> zeroed_table(std::size_t size) {
    static_assert(std::is_trivially_copyable_v<Entry> && std::is_trivially_destructible_v<Entry>);
    static_assert(alignof(Entry) <= kZeroedHeader);
    const std::size_t bytes = kZeroedHeader + size * sizeof(Entry);
#ifdef __linux__
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Large pages where the system allows them: a search touches entries all over the table.
    madvise(p, bytes, MADV_HUGEPAGE);
    std::memcpy(p, &bytes, sizeof bytes);
#else
    void* p = std::calloc(bytes, 1);
    if (!p) throw std::bad_alloc();
#endif
    return ZeroedTable<Entry>(reinterpret_cast<Entry*>(static_cast<char*>(p) + kZeroedHeader), zeroed_free);
}

}  // namespace rebirth
