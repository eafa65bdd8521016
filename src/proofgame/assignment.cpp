#include "rebirth/assignment.h"

#include <algorithm>

#include "rebirth/distance.h"

namespace rebirth {

int min_cost_assignment(const AssignmentRow* cost, int rows, int columns, AssignmentDuals* duals) {
    if (duals) {
        duals->row.fill(0);
        duals->column.fill(0);
        duals->used = 0;
    }
    if (rows == 0) return 0;
    if (rows > columns) return kFar;
    int cheapest_sum = 0;
    unsigned taken = 0;
    bool distinct = true;
    std::array<int, 16> least{};  // each row's cheapest cost
    for (int r = 0; r < rows; ++r) {
        int best = 0;
        for (int c = 1; c < columns; ++c)
            if (cost[r][c] < cost[r][best]) best = c;
        least[r] = cost[r][best];
        if (least[r] >= kFar) return kFar;
        cheapest_sum += least[r];
        distinct = distinct && !(taken & (1u << best));
        taken |= 1u << best;
    }
    if (distinct) {
        // Each row at its cheapest column: u = those minima, v = 0.
        if (duals) {
            std::copy(least.begin(), least.begin() + rows, duals->row.begin());
            duals->used = taken;
        }
        return cheapest_sum;
    }
    constexpr int kInf = 1 << 28, kNever = 1 << 16;  // kNever: the cost of a kFar pair
    std::array<int, 17> u{}, v{}, owner{}, way{}, min_to{};
    std::array<bool, 17> used{};
    // Warm start: each row priced at its cheapest cost (feasible: v = 0), and given a column
    // of that cost that no earlier row took, when there is one (a tight pair); only the other
    // rows need a search for a path.
    std::array<bool, 17> matched{};
    for (int r = 1; r <= rows; ++r) {
        u[r] = least[r - 1];
        for (int c = 1; c <= columns; ++c)
            if (cost[r - 1][c - 1] == least[r - 1] && !owner[c]) {
                owner[c] = r;
                matched[r] = true;
                break;
            }
    }
    for (int r = 1; r <= rows; ++r) {
        if (matched[r]) continue;
        owner[0] = r;
        int col = 0;
        min_to.fill(kInf);
        used.fill(false);
        do {
            used[col] = true;
            const int row = owner[col];
            int delta = kInf, next = 0;
            for (int c = 1; c <= columns; ++c) {
                if (used[c]) continue;
                const int w = std::min(cost[row - 1][c - 1], kNever) - u[row] - v[c];
                if (w < min_to[c]) {
                    min_to[c] = w;
                    way[c] = col;
                }
                if (min_to[c] < delta) {
                    delta = min_to[c];
                    next = c;
                }
            }
            for (int c = 0; c <= columns; ++c) {
                if (used[c]) {
                    u[owner[c]] += delta;
                    v[c] -= delta;
                } else {
                    min_to[c] -= delta;
                }
            }
            col = next;
        } while (owner[col] != 0);
        do {
            const int prev = way[col];
            owner[col] = owner[prev];
            col = prev;
        } while (col);
    }
    int total = 0;
    for (int c = 1; c <= columns; ++c) {
        if (!owner[c]) continue;
        if (cost[owner[c] - 1][c - 1] >= kFar) return kFar;
        total += cost[owner[c] - 1][c - 1];
    }
    if (duals) {
        for (int r = 0; r < rows; ++r) duals->row[r] = u[r + 1];
        for (int c = 0; c < columns; ++c) {
            duals->column[c] = v[c + 1];
            if (owner[c + 1]) duals->used |= 1u << c;
        }
    }
    return total;
}

int raise_column_prices(const AssignmentRow* cost, int rows, int columns, AssignmentDuals& duals) {
    int sum = 0;
    for (int r = 0; r < rows; ++r) sum += duals.row[size_t(r)];
    for (int c = 0; c < columns; ++c) {
        int price = 0;
        for (int r = 0; r < rows; ++r) price = std::min(price, cost[r][size_t(c)] - duals.row[size_t(r)]);
        duals.column[size_t(c)] = price;
        sum += price;
    }
    return sum;
}

}  // namespace rebirth
