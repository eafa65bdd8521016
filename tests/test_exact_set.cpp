// The exact failure-table set (src/core/exact_set.h) against std::set, alone and under concurrent
// inserts: a key is found exactly when the same bytes were inserted. The 64-bit key set of the
// constructive search (src/core/key_set.h) against std::set, and the same on wide keys.

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <tbb/parallel_for.h>

#include "../src/core/exact_set.h"
#include "../src/core/key_set.h"

namespace rebirth {
namespace {

// Keys like Position::exact_key(): 20 to 60 bytes, many sharing long prefixes.
std::vector<std::string> random_keys(int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::string> keys;
    std::string base(60, '\0');
    for (char& c : base) c = static_cast<char>(rng());
    for (int i = 0; i < n; ++i) {
        std::string k = base.substr(0, 20 + rng() % 41);
        for (int j = 0; j < 3; ++j) k[rng() % k.size()] = static_cast<char>(rng());
        keys.push_back(k);
    }
    return keys;
}

// A set nothing was inserted into (its shards are not allocated yet) answers and clears.
TEST(ExactSet, AnEmptySetFindsNothing) {
    ExactSet set;
    EXPECT_FALSE(set.contains("abc"));
    EXPECT_EQ(set.find(""), -1);
    set.clear();
    EXPECT_EQ(set.size(), 0u);
    EXPECT_TRUE(set.insert("abc", 7));
    EXPECT_EQ(set.find("abc"), 7);
    set.clear();
    EXPECT_FALSE(set.contains("abc"));
}

TEST(ExactSet, FindsExactlyTheInsertedKeys) {
    ExactSet set;
    std::set<std::string> model;
    const auto keys = random_keys(200000, 7);
    for (size_t i = 0; i < keys.size(); i += 2) {
        EXPECT_EQ(set.insert(keys[i]), model.insert(keys[i]).second);
    }
    EXPECT_EQ(set.size(), model.size());
    size_t found = 0;
    for (const std::string& k : keys) {
        const bool in = set.contains(k);
        EXPECT_EQ(in, model.count(k) == 1);
        found += in;
    }
    EXPECT_GE(found, keys.size() / 2);
    // A key and its prefixes or extensions are different keys; the empty key is a key.
    EXPECT_FALSE(set.contains(keys[0].substr(0, keys[0].size() - 1)));
    EXPECT_FALSE(set.contains(keys[0] + '\0'));
    EXPECT_FALSE(set.contains(""));
    EXPECT_TRUE(set.insert(""));
    EXPECT_TRUE(set.contains(""));
    EXPECT_FALSE(set.insert(""));
}

// The byte stored with a key (the direct-play table keeps its answers so) and clear().
TEST(ExactSet, KeepsAByteWithEachKey) {
    ExactSet set;
    const auto keys = random_keys(50000, 13);
    std::map<std::string, int> model;
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::uint8_t v = static_cast<std::uint8_t>(i * 7);
        EXPECT_EQ(set.insert(keys[i], v), model.emplace(keys[i], v).second);
    }
    for (const auto& [k, v] : model) EXPECT_EQ(set.find(k), v);
    EXPECT_EQ(set.find("absent"), -1);
    set.clear();
    EXPECT_EQ(set.size(), 0u);
    EXPECT_EQ(set.find(keys[0]), -1);
    EXPECT_TRUE(set.insert(keys[0], 1));
    EXPECT_EQ(set.find(keys[0]), 1);
}

TEST(ExactSet, ConcurrentInsertsLoseNothing) {
    ExactSet set;
    const auto keys = random_keys(100000, 11);
    tbb::parallel_for(size_t(0), keys.size(), [&](size_t i) {
        set.insert(keys[i]);
        EXPECT_TRUE(set.contains(keys[i]));
    });
    const std::set<std::string> model(keys.begin(), keys.end());
    EXPECT_EQ(set.size(), model.size());
    for (const std::string& k : model) EXPECT_TRUE(set.contains(k));
}

// LineMap against std::map: a key reads back the value set with its ticket, also after the
// table grew in between (tickets of earlier generations), and a key is found only when the same
// bytes were added.
TEST(LineMap, FindsExactlyTheAddedKeysAndTheirValues) {
    for (std::size_t longest : {22u, 54u, 118u}) {
        LineMap map(longest);
        std::map<std::string, int> model;
        std::mt19937 rng{static_cast<unsigned>(longest)};
        std::vector<std::pair<std::string, LineMap::Ticket>> waiting;
        for (int i = 0; i < 60000; ++i) {
            std::string k(1 + rng() % longest, '\0');
            for (char& c : k) c = static_cast<char>(rng() % 4);  // short alphabet: many repeats
            LineMap::Ticket ticket;
            const int got = map.find_or_add(k, ticket, 7);
            auto it = model.find(k);
            if (it == model.end()) {
                ASSERT_EQ(got, -1) << i;
                ASSERT_TRUE(ticket.stored);
                model[k] = 7;
                waiting.emplace_back(k, ticket);
            } else {
                ASSERT_EQ(got, it->second) << i;
                ASSERT_FALSE(ticket.stored);
            }
            // Values are set some adds later, as a search sets them after the subtree.
            if (waiting.size() > 50 || rng() % 3 == 0) {
                const auto& [key, t] = waiting.front();
                const int value = int(key.size() % 2);
                map.set(t, key, std::uint8_t(value));
                model[key] = value;
                waiting.erase(waiting.begin());
            }
        }
        EXPECT_EQ(map.size(), model.size());
        for (const auto& [k, v] : model) {
            LineMap::Ticket ticket;
            EXPECT_EQ(map.find_or_add(k, ticket), v);
        }
    }
}

TEST(LineMap, KeysLongerThanTheEntriesAreNeverStored) {
    LineMap map(22);
    EXPECT_EQ(map.capacity(), 22u);
    const std::string long_key(23, 'x');
    LineMap::Ticket ticket;
    EXPECT_EQ(map.find_or_add(long_key, ticket), -1);
    EXPECT_FALSE(ticket.stored);
    map.set(ticket, long_key, 1);
    EXPECT_EQ(map.find_or_add(long_key, ticket), -1);
    EXPECT_EQ(map.size(), 0u);
    map.clear();
    EXPECT_EQ(map.find_or_add("ab", ticket, 3), -1);
    EXPECT_EQ(map.find_or_add("ab", ticket), 3);
}

// KeySet answers as std::set through its growth (from 1024 slots to 2^18), with key 0 and keys
// that share their home slot (equal high bits after the multiplication: neighbours probed),
// and is empty again after clear().
TEST(KeySet, AgreesWithStdSet) {
    std::mt19937_64 rng(7);
    KeySet set;
    std::set<std::uint64_t> model;
    std::vector<std::uint64_t> keys{0, 1, 0x9E3779B97F4A7C15ull, ~std::uint64_t(0)};
    for (int i = 0; i < 100000; ++i) keys.push_back(i % 3 == 0 ? rng() % 4096 : rng());
    for (int round = 0; round < 2; ++round) {
        for (size_t i = 0; i < keys.size(); ++i) {
            const std::uint64_t k = keys[i];
            ASSERT_EQ(set.contains(k), model.count(k) == 1) << i;
            ASSERT_EQ(set.insert(k), model.insert(k).second) << i;
            ASSERT_TRUE(set.contains(k));
            const std::uint64_t other = rng();
            ASSERT_EQ(set.contains(other), model.count(other) == 1);
        }
        EXPECT_EQ(set.size(), model.size());
        for (std::uint64_t k : model) ASSERT_TRUE(set.contains(k));
        set.clear();
        model.clear();
        EXPECT_EQ(set.size(), 0u);
        EXPECT_FALSE(set.contains(0));
        EXPECT_FALSE(set.contains(keys[5]));
    }
}

// The wide set on whole keys of seven words (the closure search's positions, retro_closure.cpp;
// the cage search's have eight): exact, so keys that differ in one bit of one word are two
// keys, whatever their hashes; the all-zero key is a key like any other; a set never inserted
// into holds nothing. After reset() (a search ended, the table kept) and after clear() it is
// empty and agrees with std::set again, through its growth; a reset after a small search gives
// a large table back (asserted through the answers only: the memory is not observable).
TEST(KeySet, WideKeysAreExact) {
    using Key = std::array<std::uint64_t, 7>;
    WideKeySet<Key> set;
    EXPECT_FALSE(set.contains(Key{}));
    EXPECT_EQ(set.size(), 0u);
    std::mt19937_64 rng(11);
    std::vector<Key> keys{Key{}};
    for (int i = 0; i < 20000; ++i) {
        Key k{};
        for (auto& w : k) w = i % 2 ? rng() : rng() % 4;
        keys.push_back(k);
        // Its neighbours: one bit of one word flipped.
        for (int j = 0; j < 3; ++j) {
            Key n = k;
            n[rng() % 7] ^= std::uint64_t(1) << (rng() % 64);
            keys.push_back(n);
        }
    }
    // Rounds: all keys, then (after reset) a few, then (after reset) all again, then after clear.
    for (const size_t count : {keys.size(), size_t(50), keys.size(), size_t(3000)}) {
        std::set<Key> model;
        for (size_t i = 0; i < count; ++i) {
            ASSERT_EQ(set.contains(keys[i]), model.count(keys[i]) == 1) << i;
            ASSERT_EQ(set.insert(keys[i]), model.insert(keys[i]).second) << i;
        }
        EXPECT_EQ(set.size(), model.size());
        for (const Key& k : model) ASSERT_TRUE(set.contains(k));
        if (count == 3000) {
            set.clear();
        } else {
            set.reset();
        }
        EXPECT_EQ(set.size(), 0u);
        EXPECT_FALSE(set.contains(keys[1]));
        EXPECT_FALSE(set.contains(Key{}));
    }
}

}  // namespace
}  // namespace rebirth
