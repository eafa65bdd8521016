#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rebirth {

// A set of 64-bit position keys (Position::key(), Zobrist hashes) for one thread: open
// addressing with linear probing in a power-of-two table that doubles when half full, so a
// lookup touches one or two cache lines instead of a chain of list nodes. Key 0 (the empty
// slot's value) is kept apart. Two positions with the same hash are one key: a search that
// uses it must not depend on keys being exact (a constructive search replays what it finds).
class KeySet {
  public:
    KeySet() { clear(); }

    // Inserts k; true when it was not in the set.
    bool insert(std::uint64_t k) {
        if (k == 0) {
            const bool added = !has_zero_;
            has_zero_ = true;
            return added;
        }
        if (2 * (count_ + 1) > slots_.size()) grow();
        size_t i = slot(k);
        for (; slots_[i] != 0; i = next(i))
            if (slots_[i] == k) return false;
        slots_[i] = k;
        ++count_;
        return true;
    }

    bool contains(std::uint64_t k) const {
        if (k == 0) return has_zero_;
        for (size_t i = slot(k); slots_[i] != 0; i = next(i))
            if (slots_[i] == k) return true;
        return false;
    }

    size_t size() const { return count_ + (has_zero_ ? 1 : 0); }

    // Empties the set and gives back its memory but for a small table.
    void clear() {
        slots_.assign(kInitial, 0);
        shift_ = 64 - kInitialBits;
        count_ = 0;
        has_zero_ = false;
    }

  private:
    static constexpr int kInitialBits = 10;
    static constexpr size_t kInitial = size_t(1) << kInitialBits;

    // The home slot of k: its high bits after a multiplication, so that keys differing only in
    // their low bits spread too.
    size_t slot(std::uint64_t k) const { return size_t((k * 0x9E3779B97F4A7C15ull) >> shift_); }

    // The slot probed after slot i (the table wraps round).
    size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }

    void grow() {
        std::vector<std::uint64_t> old(2 * slots_.size(), 0);
        old.swap(slots_);
        --shift_;
        for (std::uint64_t k : old) {
            if (k == 0) continue;
            size_t i = slot(k);
            while (slots_[i] != 0) i = next(i);
            slots_[i] = k;
        }
    }

    std::vector<std::uint64_t> slots_;
    int shift_ = 64 - kInitialBits;
    size_t count_ = 0;  // keys in slots_
    bool has_zero_ = false;
};

}  // namespace rebirth
