// The least-cost assignment the proof-game bounds share (assignment.h), against an exhaustive
// count over subsets: random cost matrices of 1 to 12 rows and up to 16 columns, with ties,
// kFar pairs and rows whose cheapest columns collide; the duals it gives are feasible and
// their sum is the total.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rebirth/assignment.h"
#include "rebirth/distance.h"

namespace rebirth {
namespace {

// The least total over every assignment of the rows to distinct columns (kFar when none is
// below kFar): a count over the subsets of columns, row by row.
int exhaustive(const std::vector<AssignmentRow>& cost, int columns) {
    const int rows = static_cast<int>(cost.size());
    std::vector<int> best(size_t(1) << columns, kFar * 32);
    best[0] = 0;
    int answer = kFar * 32;
    for (unsigned mask = 0; mask < (1u << columns); ++mask) {
        const int r = __builtin_popcount(mask);
        if (best[mask] >= kFar * 32) continue;
        if (r == rows) {
            answer = std::min(answer, best[mask]);
            continue;
        }
        for (int c = 0; c < columns; ++c) {
            if (mask & (1u << c)) continue;
            const int cell = cost[size_t(r)][size_t(c)];
            if (cell >= kFar) continue;
            best[mask | (1u << c)] = std::min(best[mask | (1u << c)], best[mask] + cell);
        }
    }
    return answer >= kFar * 32 ? kFar : answer;
}

TEST(Assignment, LeastTotalAndFeasibleDuals) {
    std::mt19937 rng(20261129);
    int cases = 0, hungarian = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const int columns = 1 + int(rng() % 12);
        const int rows = 1 + int(rng() % columns);
        // Small ranges make ties and shared cheapest columns common.
        const int range = 1 + int(rng() % (trial % 3 == 0 ? 3 : 12));
        std::vector<AssignmentRow> cost(static_cast<size_t>(rows));
        for (auto& row : cost)
            for (int c = 0; c < columns; ++c) row[size_t(c)] = rng() % 9 == 0 ? kFar : int(rng() % range);
        AssignmentDuals duals;
        const int got = min_cost_assignment(cost.data(), rows, columns, &duals);
        const int want = exhaustive(cost, columns);
        ASSERT_EQ(got, want) << "trial " << trial;
        ++cases;
        // Each row's cheapest column not its own: the Hungarian method ran.
        std::vector<int> cheapest;
        for (const auto& row : cost)
            cheapest.push_back(int(std::min_element(row.begin(), row.begin() + columns) - row.begin()));
        std::sort(cheapest.begin(), cheapest.end());
        if (std::adjacent_find(cheapest.begin(), cheapest.end()) != cheapest.end()) ++hungarian;
        if (got >= kFar) continue;
        int sum = 0;
        for (int r = 0; r < rows; ++r) sum += duals.row[size_t(r)];
        for (int c = 0; c < columns; ++c) {
            ASSERT_LE(duals.column[size_t(c)], 0) << "trial " << trial;
            sum += duals.column[size_t(c)];
            for (int r = 0; r < rows; ++r)
                ASSERT_LE(duals.row[size_t(r)] + duals.column[size_t(c)], cost[size_t(r)][size_t(c)])
                    << "trial " << trial;
        }
        EXPECT_EQ(sum, got) << "trial " << trial;
        EXPECT_EQ(__builtin_popcount(duals.used), rows) << "trial " << trial;
    }
    EXPECT_EQ(cases, 4000);
    EXPECT_GT(hungarian, 1000);
}

}  // namespace
}  // namespace rebirth
