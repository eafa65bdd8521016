#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rebirth {

// A set of byte strings (Position::exact_key() values, under 64 KiB each), each with a byte
// of value, shared by the threads of one search: find(), contains() and insert() may run
// concurrently. Exact: a string is found only when the same
// bytes were inserted (a hash selects the slot; the bytes are compared). Each of 64 shards
// holds an open-addressing table of 64-bit hashes and the strings in one arena, behind a
// spin lock, so a lookup touches about two cache lines instead of a chain of list nodes.
class ExactSet {
  public:
    ExactSet() : shards_(std::make_unique<Shard[]>(kShards)) {}

    bool contains(std::string_view key) const { return find(key) >= 0; }

    // The byte stored with key, or -1 when key is not in the set.
    int find(std::string_view key) const {
        const std::uint64_t h = hash(key);
        Shard& s = shards_[h >> (64 - kShardBits)];
        Lock lock(s.busy);
        const Slot* e = s.find(h, key);
        return e ? e->value : -1;
    }

    // Adds key with a byte of value; false (the stored byte unchanged) when it was there.
    bool insert(std::string_view key, std::uint8_t value = 0) {
        const std::uint64_t h = hash(key);
        Shard& s = shards_[h >> (64 - kShardBits)];
        if (key.size() > 0xFFFF) return false;  // never stored: looked up in vain
        Lock lock(s.busy);
        if (s.find(h, key)) return false;
        s.add(h, key, value);
        size_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    size_t size() const { return size_.load(std::memory_order_relaxed); }

    // Empties the set (not to be called while other threads use it).
    void clear() {
        for (int i = 0; i < kShards; ++i) {
            shards_[i].slots = {};
            shards_[i].arena = {};
            shards_[i].used = 0;
        }
        size_.store(0, std::memory_order_relaxed);
    }

  private:
    static constexpr int kShardBits = 6;
    static constexpr int kShards = 1 << kShardBits;

    static std::uint64_t hash(std::string_view key) {
        // The shard takes the top bits and the slot the low ones: mix std::hash's value.
        std::uint64_t h = std::hash<std::string_view>{}(key);
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        return h | 1;  // 0 marks an empty slot
    }

    struct Lock {
        explicit Lock(std::atomic<bool>& b) : busy(b) {
            while (busy.exchange(true, std::memory_order_acquire))
                while (busy.load(std::memory_order_relaxed)) {
                }
        }
        ~Lock() { busy.store(false, std::memory_order_release); }
        std::atomic<bool>& busy;
    };

    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t offset = 0;  // of the bytes in the arena
        std::uint16_t length = 0;
        std::uint8_t value = 0;
    };

    struct Shard {
        std::atomic<bool> busy{false};
        std::vector<Slot> slots;  // a power of two, at most half full
        std::vector<char> arena;
        size_t used = 0;

        const Slot* find(std::uint64_t h, std::string_view key) const {
            if (slots.empty()) return nullptr;
            const size_t mask = slots.size() - 1;
            for (size_t i = start(h, mask);; i = (i + 1) & mask) {
                const Slot& e = slots[i];
                if (e.hash == 0) return nullptr;
                if (e.hash == h && e.length == key.size() &&
                    std::memcmp(arena.data() + e.offset, key.data(), key.size()) == 0)
                    return &e;
            }
        }

        // The first slot to probe: the hash's low bits above bit 0 (which hash() sets).
        static size_t start(std::uint64_t h, size_t mask) { return (h >> 1) & mask; }

        void add(std::uint64_t h, std::string_view key, std::uint8_t value) {
            if (2 * (used + 1) > slots.size()) grow();
            Slot e{h, static_cast<std::uint32_t>(arena.size()), static_cast<std::uint16_t>(key.size()), value};
            arena.insert(arena.end(), key.begin(), key.end());
            place(e);
            ++used;
        }

        void place(const Slot& e) {
            const size_t mask = slots.size() - 1;
            size_t i = start(e.hash, mask);
            while (slots[i].hash != 0) i = (i + 1) & mask;
            slots[i] = e;
        }

        void grow() {
            std::vector<Slot> old = std::move(slots);
            slots.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
            for (const Slot& e : old)
                if (e.hash != 0) place(e);
        }
    };

    std::unique_ptr<Shard[]> shards_;
    std::atomic<size_t> size_{0};
};

}  // namespace rebirth
