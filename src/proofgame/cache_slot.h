#pragma once

// The slot of a key in the bounds' caches (proof_bound.cpp, proof_captures.cpp,
// proof_rebirth.cpp). Not a public header.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "rebirth/types.h"

namespace rebirth {

// The slot of `key` among `size` slots (a power of two): a multiply-xor hash of its words.
template <std::size_t N>
std::size_t cache_slot(const std::array<Bitboard, N>& key, std::size_t size) {
    std::uint64_t h = 0;
    for (Bitboard k : key) h = (h ^ k) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return static_cast<std::size_t>(h & (size - 1));
}

// `size` entries of all bytes zero (an entry's "empty"), allocated by calloc: the system gives
// such memory zeroed page by page at first touch, so a large table costs only the pages used.
// Free with std::free. Throws std::bad_alloc when there is no memory.
template <class Entry>
Entry* zeroed_table(std::size_t size) {
    static_assert(std::is_trivially_copyable_v<Entry> && std::is_trivially_destructible_v<Entry>);
    void* p = std::calloc(size, sizeof(Entry));
    if (!p) throw std::bad_alloc();
    return static_cast<Entry*>(p);
}

}  // namespace rebirth
