// The exact failure-table set (src/exact_set.h) against std::set, alone and under concurrent
// inserts: a key is found exactly when the same bytes were inserted.

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "../src/exact_set.h"

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

}  // namespace
}  // namespace rebirth
