#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace rebirth {

// A set of keys for one thread: open addressing with linear probing in a power-of-two table
// that doubles when half full, so a lookup touches one or two cache lines instead of a chain
// of list nodes. Keys are 64-bit words; the zero key (the empty slot's value) is kept apart.
// A search keyed by hashes (Position::key(), Zobrist) takes two positions with one hash for
// one and must not depend on keys being exact (a constructive search replays what it finds);
// a search keyed by whole positions uses WideKeySet, which is exact.
class KeySet {
  public:
    using Key = std::uint64_t;

    // Inserts k; true when it was not in the set.
    bool insert(Key k) {
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

    bool contains(Key k) const {
        if (k == 0) return has_zero_;
        if (slots_.empty()) return false;
        for (size_t i = slot(k); slots_[i] != 0; i = next(i))
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
    size_t slot(Key k) const { return size_t((k * 0x9E3779B97F4A7C15ull) >> shift_); }

    // The slot probed after slot i (the table wraps round).
    size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }

    void grow() {
        std::vector<Key> old(slots_.empty() ? kInitial : 2 * slots_.size(), 0);
        old.swap(slots_);
        shift_ = slots_.size() == kInitial ? 64 - kInitialBits : shift_ - 1;
        for (Key k : old) {
            if (k == 0) continue;
            size_t i = slot(k);
            while (slots_[i] != 0) i = next(i);
            slots_[i] = k;
        }
    }

    std::vector<Key> slots_;
    int shift_ = 64;
    size_t count_ = 0;  // keys in slots_
    bool has_zero_ = false;
};

// An exact set of wide keys (std::array<std::uint64_t, N>) for one thread: the keys in a dense
// array in insertion order, and an open-addressing table (linear probing, doubling when half
// full) of 8-byte slots, each a key's index and 32 bits of its hash, so a probe reads one small
// slot and a key only when the hash bits match. Eight words a slot made the cage search's
// tables of millions of keys miss the cache at every probe and compare 64 bytes twice per
// probe; that was half its time.
template <class Key>
class WideKeySet {
  public:
    // Inserts k; true when it was not in the set.
    bool insert(const Key& k) {
        if (2 * (keys_.size() + 1) > slots_.size()) grow();
        const std::uint64_t h = hash(k);
        size_t i = slot(h);
        for (; slots_[i] != 0; i = next(i))
            if (tag(slots_[i]) == std::uint32_t(h) && keys_[index(slots_[i])] == k) return false;
        keys_.push_back(k);
        slots_[i] = (h << 32) | std::uint64_t(keys_.size());  // index + 1: 0 is the empty slot
        return true;
    }

    bool contains(const Key& k) const {
        if (slots_.empty()) return false;
        const std::uint64_t h = hash(k);
        for (size_t i = slot(h); slots_[i] != 0; i = next(i))
            if (tag(slots_[i]) == std::uint32_t(h) && keys_[index(slots_[i])] == k) return true;
        return false;
    }

    size_t size() const { return keys_.size(); }

    // Empties the set and gives back its memory.
    void clear() {
        std::vector<Key>().swap(keys_);
        std::vector<std::uint64_t>().swap(slots_);
        shift_ = 64;
    }

    // Empties the set for another search on the same thread, keeping its memory when the search
    // just done needed about as much (zeroing the table costs less than the page faults of a
    // fresh one); a table or key array more than four times too large is given back.
    void reset() {
        size_t need = kInitial;
        while (2 * keys_.size() > need) need *= 2;
        if (slots_.size() > 4 * need) {
            clear();
        } else {
            std::fill(slots_.begin(), slots_.end(), 0);
            if (keys_.capacity() > 4 * std::max<size_t>(keys_.size(), kInitial)) std::vector<Key>().swap(keys_);
            keys_.clear();
        }
    }

  private:
    static constexpr int kInitialBits = 10;
    static constexpr size_t kInitial = size_t(1) << kInitialBits;

    // The key's words mixed in turn, then a finaliser, so that both ends of the hash are good:
    // the high bits pick the home slot, the low 32 are kept in it.
    static std::uint64_t hash(const Key& k) {
        std::uint64_t h = 0;
        for (std::uint64_t w : k) h = ((h ^ w) * 0xBF58476D1CE4E5B9ull) ^ (h >> 31);
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 33;
        return h;
    }
    size_t slot(std::uint64_t h) const { return size_t((h * 0x9E3779B97F4A7C15ull) >> shift_); }
    static std::uint32_t tag(std::uint64_t s) { return std::uint32_t(s >> 32); }
    static size_t index(std::uint64_t s) { return size_t(std::uint32_t(s)) - 1; }
    size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }

    void grow() {
        if (keys_.size() >= std::uint32_t(-1)) throw std::length_error("WideKeySet: more than 2^32 - 1 keys");
        std::vector<std::uint64_t> old(slots_.empty() ? kInitial : 2 * slots_.size(), 0);
        old.swap(slots_);
        shift_ = slots_.size() == kInitial ? 64 - kInitialBits : shift_ - 1;
        for (std::uint64_t s : old) {
            if (s == 0) continue;
            size_t i = slot(hash(keys_[index(s)]));
            while (slots_[i] != 0) i = next(i);
            slots_[i] = s;
        }
    }

    std::vector<Key> keys_;
    std::vector<std::uint64_t> slots_;
    int shift_ = 64;
};

}  // namespace rebirth
