#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace rebirth {

// A set of byte strings (Position::exact_key() values, under 64 KiB each), each with a byte
// of value, shared by the threads of one search: find(), contains() and insert() may run
// concurrently. Exact: a string is found only when the same
// bytes were inserted (a hash selects the slot; the bytes are compared). Each of 64 shards
// holds an open-addressing table of 64-bit hashes and the strings in one arena, behind a
// spin lock, so a lookup touches about two cache lines instead of a chain of list nodes.
// The shards are allocated at the first insert: an unused set costs nothing.
class ExactSet {
  public:
    ExactSet() = default;
    ExactSet(const ExactSet&) = delete;
    ExactSet& operator=(const ExactSet&) = delete;
    ~ExactSet() { delete[] shards_.load(std::memory_order_relaxed); }

    bool contains(std::string_view key) const { return find(key) >= 0; }

    // The byte stored with key, or -1 when key is not in the set.
    int find(std::string_view key) const {
        Shard* shards = shards_.load(std::memory_order_acquire);
        if (!shards) return -1;
        const std::uint64_t h = hash(key);
        Shard& s = shards[h >> (64 - kShardBits)];
        Lock lock(s.busy);
        const Slot* e = s.find(h, key);
        return e ? e->value : -1;
    }

    // Adds key with a byte of value; false (the stored byte unchanged) when it was there.
    bool insert(std::string_view key, std::uint8_t value = 0) {
        if (key.size() > 0xFFFF) return false;  // never stored: looked up in vain
        const std::uint64_t h = hash(key);
        Shard& s = allocated()[h >> (64 - kShardBits)];
        Lock lock(s.busy);
        if (s.find(h, key)) return false;
        s.add(h, key, value);
        size_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    size_t size() const { return size_.load(std::memory_order_relaxed); }

    // Empties the set (not to be called while other threads use it).
    void clear() {
        Shard* shards = shards_.load(std::memory_order_relaxed);
        if (!shards) return;
        for (int i = 0; i < kShards; ++i) {
            shards[i].slots = {};
            shards[i].arena = {};
            shards[i].used = 0;
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

    // The shards, allocated by the first caller (another thread's allocation wins a race).
    Shard* allocated() {
        Shard* shards = shards_.load(std::memory_order_acquire);
        if (shards) return shards;
        Shard* fresh = new Shard[kShards];
        if (shards_.compare_exchange_strong(shards, fresh, std::memory_order_acq_rel)) return fresh;
        delete[] fresh;
        return shards;
    }

    std::atomic<Shard*> shards_{nullptr};
    std::atomic<size_t> size_{0};
};

// An exact map from short byte strings to a byte, for one thread: a search's memo. Each entry
// is one block of 32, 64 or 128 bytes (chosen at construction by the longest key expected)
// holding the hash, the bytes and the value, so a lookup costs one cache miss; find_or_add()
// returns a ticket with which set() stores the value found later without looking again.
// A longer key than the entries hold is never stored (find_or_add then always misses), which
// a memo tolerates: it only forgets.
class LineMap {
  public:
    // Entries for keys of up to `longest_key` bytes (at most 118).
    explicit LineMap(std::size_t longest_key = 54)
        : stride_(longest_key <= 22   ? 32
                  : longest_key <= 54 ? 64
                                      : 128),
          capacity_(stride_ - kHeader) {}

    // The longest key stored.
    std::size_t capacity() const { return capacity_; }

    struct Ticket {
        std::size_t slot = 0;
        std::uint64_t generation = 0;
        bool stored = false;
    };

    // The byte stored with key; otherwise -1, and key is added (its value to come through
    // set(); until then it reads as `pending`).
    int find_or_add(std::string_view key, Ticket& ticket, std::uint8_t pending = 0xFF) {
        return find_or_add(key, hash(key), ticket, pending);
    }

    // find_or_add() with the caller's hash of key, which must be a function of the key's bytes
    // (equal keys, equal hashes) and used for every key of this map.
    int find_or_add(std::string_view key, std::uint64_t h, Ticket& ticket, std::uint8_t pending = 0xFF) {
        ticket.stored = false;
        if (key.size() > capacity_) return -1;
        if (10 * (used_ + 1) > 7 * slots_) grow();
        h |= 1;  // 0 marks an empty entry
        const std::size_t mask = slots_ - 1;
        for (std::size_t i = (h >> 1) & mask;; i = (i + 1) & mask) {
            unsigned char* e = entry(i);
            const std::uint64_t eh = load_hash(e);
            if (eh == 0) {
                std::memcpy(e, &h, 8);
                e[8] = static_cast<unsigned char>(key.size());
                e[9] = pending;
                std::memcpy(e + kHeader, key.data(), key.size());
                ++used_;
                ticket = {i, generation_, true};
                return -1;
            }
            if (eh == h && e[8] == key.size() && std::memcmp(e + kHeader, key.data(), key.size()) == 0) return e[9];
        }
    }

    // Stores value with the key find_or_add() added (`key` and its hash again, for when the
    // table grew since: current() tells).
    void set(const Ticket& ticket, std::string_view key, std::uint8_t value) { set(ticket, key, hash(key), value); }
    void set(const Ticket& ticket, std::string_view key, std::uint64_t h, std::uint8_t value) {
        if (!ticket.stored) return;
        if (ticket.generation == generation_) {
            entry(ticket.slot)[9] = value;
            return;
        }
        h |= 1;
        const std::size_t mask = slots_ - 1;
        for (std::size_t i = (h >> 1) & mask;; i = (i + 1) & mask) {
            unsigned char* e = entry(i);
            if (load_hash(e) == h && e[8] == key.size() && std::memcmp(e + kHeader, key.data(), key.size()) == 0) {
                e[9] = value;
                return;
            }
        }
    }

    // Starts loading the entry where a key of hash h is looked for first.
    void prefetch(std::uint64_t h) const {
        if (slots_) __builtin_prefetch(entry(((h | 1) >> 1) & (slots_ - 1)));
    }

    // Whether set(ticket, ...) needs no key (the table has not grown since the ticket).
    bool current(const Ticket& ticket) const { return ticket.generation == generation_; }

    std::size_t size() const { return used_; }

    void clear() {
        storage_ = Block();
        base_ = nullptr;
        slots_ = used_ = 0;
        ++generation_;
    }

  private:
    static constexpr std::size_t kHeader = 10;  // hash (8), key length, value

    // Zeroed memory for the entries, aligned to 64 bytes. On Linux a large table is mapped
    // directly and asked for huge pages: a lookup then seldom misses the TLB as well as the
    // cache. Elsewhere, calloc.
    class Block {
      public:
        Block() = default;
        explicit Block(std::size_t bytes) {
#ifdef __linux__
            if (bytes >= kHuge) {
                size_ = (bytes + kHuge - 1) / kHuge * kHuge;
                void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED) throw std::bad_alloc();
                madvise(p, size_, MADV_HUGEPAGE);
                base_ = static_cast<unsigned char*>(p);
                mapped_ = true;
                return;
            }
#endif
            raw_ = std::calloc(bytes + 64, 1);
            if (!raw_) throw std::bad_alloc();
            base_ =
                reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_) + 63) & ~std::uintptr_t(63));
        }
        Block(Block&& o) noexcept { swap(o); }
        Block& operator=(Block&& o) noexcept {
            Block(std::move(o)).swap(*this);
            return *this;
        }
        Block(const Block&) = delete;
        Block& operator=(const Block&) = delete;
        ~Block() {
#ifdef __linux__
            if (mapped_) munmap(base_, size_);
#endif
            std::free(raw_);
        }
        unsigned char* base() const { return base_; }

      private:
        static constexpr std::size_t kHuge = std::size_t(2) << 20;
        void swap(Block& o) noexcept {
            std::swap(raw_, o.raw_);
            std::swap(base_, o.base_);
            std::swap(size_, o.size_);
            std::swap(mapped_, o.mapped_);
        }
        void* raw_ = nullptr;
        unsigned char* base_ = nullptr;
        std::size_t size_ = 0;
        bool mapped_ = false;
    };

    unsigned char* entry(std::size_t i) const { return base_ + i * stride_; }
    static std::uint64_t load_hash(const unsigned char* e) {
        std::uint64_t h;
        std::memcpy(&h, e, 8);
        return h;
    }

    static std::uint64_t hash(std::string_view key) {
        std::uint64_t h = 0x9E3779B97F4A7C15ull ^ key.size();
        std::size_t i = 0;
        for (; i + 8 <= key.size(); i += 8) {
            std::uint64_t w;
            std::memcpy(&w, key.data() + i, 8);
            h = (h ^ w) * 0xff51afd7ed558ccdull;
            h ^= h >> 32;
        }
        std::uint64_t w = 0;
        std::memcpy(&w, key.data() + i, key.size() - i);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 29;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        return h;
    }

    // Doubles the table. Its memory comes as zero pages from the system, touched only where
    // entries go (Block).
    void grow() {
        const std::size_t old_slots = slots_;
        const Block old = std::move(storage_);
        const unsigned char* old_base = base_;
        slots_ = old_slots ? 2 * old_slots : 1024;
        storage_ = Block(slots_ * stride_);
        base_ = storage_.base();
        const std::size_t mask = slots_ - 1;
        for (std::size_t j = 0; j < old_slots; ++j) {
            const unsigned char* e = old_base + j * stride_;
            const std::uint64_t h = load_hash(e);
            if (h == 0) continue;
            std::size_t i = (h >> 1) & mask;
            while (load_hash(entry(i)) != 0) i = (i + 1) & mask;
            std::memcpy(entry(i), e, stride_);
        }
        ++generation_;
    }

    std::size_t stride_, capacity_;
    Block storage_;
    unsigned char* base_ = nullptr;
    std::size_t slots_ = 0, used_ = 0;
    std::uint64_t generation_ = 0;
};

}  // namespace rebirth
