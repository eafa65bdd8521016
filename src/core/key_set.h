#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace rebirth {

// A set of keys for one thread: open addressing with linear probing in a power-of-two table
// that doubles when half full, so a lookup touches one or two cache lines instead of a chain
// of list nodes. Key is a 64-bit word or an array of them (std::array<std::uint64_t, N>);
// the all-zero key (the empty slot's value) is kept apart. The set is exact on its keys: a
// search keyed by hashes (KeySet of Position::key(), Zobrist) takes two positions with one
// hash for one and must not depend on keys being exact (a constructive search replays what it
// finds); a search keyed by the whole position (the cage search) may.
template <class Key>
class BasicKeySet {
  public:
    BasicKeySet() = default;

    // Inserts k; true when it was not in the set.
    bool insert(const Key& k) {
        if (k == Key{}) {
            const bool added = !has_zero_;
            has_zero_ = true;
            return added;
        }
        if (2 * (count_ + 1) > slots_.size()) grow();
        size_t i = slot(k);
        for (; !(slots_[i] == Key{}); i = next(i))
            if (slots_[i] == k) return false;
        slots_[i] = k;
        ++count_;
        return true;
    }

    bool contains(const Key& k) const {
        if (k == Key{}) return has_zero_;
        if (slots_.empty()) return false;
        for (size_t i = slot(k); !(slots_[i] == Key{}); i = next(i))
            if (slots_[i] == k) return true;
        return false;
    }

    size_t size() const { return count_ + (has_zero_ ? 1 : 0); }

    // Empties the set and gives back its memory (the table is allocated at the first insert).
    void clear() {
        slots_.clear();
        slots_.shrink_to_fit();
        shift_ = 64;
        count_ = 0;
        has_zero_ = false;
    }

  private:
    static constexpr int kInitialBits = 10;
    static constexpr size_t kInitial = size_t(1) << kInitialBits;

    // The home slot of k: its high bits after a multiplication, so that keys differing only in
    // their low bits spread too.
    size_t slot(const Key& k) const { return size_t((fold(k) * 0x9E3779B97F4A7C15ull) >> shift_); }

    // One word of a key: the word itself, or an array's words mixed in turn.
    static std::uint64_t fold(const Key& k) {
        if constexpr (std::is_same_v<Key, std::uint64_t>) {
            return k;
        } else {
            std::uint64_t h = 0;
            for (std::uint64_t w : k) h = ((h ^ w) * 0xBF58476D1CE4E5B9ull) ^ (h >> 31);
            return h;
        }
    }

    // The slot probed after slot i (the table wraps round).
    size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }

    void grow() {
        std::vector<Key> old(slots_.empty() ? kInitial : 2 * slots_.size(), Key{});
        old.swap(slots_);
        shift_ = slots_.size() == kInitial ? 64 - kInitialBits : shift_ - 1;
        for (const Key& k : old) {
            if (k == Key{}) continue;
            size_t i = slot(k);
            while (!(slots_[i] == Key{})) i = next(i);
            slots_[i] = k;
        }
    }

    std::vector<Key> slots_;
    int shift_ = 64;
    size_t count_ = 0;  // keys in slots_
    bool has_zero_ = false;
};

using KeySet = BasicKeySet<std::uint64_t>;

}  // namespace rebirth
