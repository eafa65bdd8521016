#pragma once

#include <array>

// The least-cost assignment of rows to distinct columns (at most 16 of each), the step the
// proof-game bounds share: give each target square its own unit at the least total of moves.

namespace rebirth {

// Costs of one row, one per column (0..kFar of distance.h).
using AssignmentRow = std::array<int, 16>;

// The least total cost of giving each of `rows` rows its own column (rows <= columns <= 16),
// cost[r][c] in 0..kFar; kFar when some row can only get a column of cost kFar or when rows >
// columns (otherwise the total may exceed kFar). When every row's cheapest column is its own,
// that is the answer; otherwise the Hungarian method, O(n^3), started from the rows that got
// their cheapest column.
// With `duals`, also a feasible solution of the dual problem: row[r] + column[c] <= cost[r][c]
// for every pair, column[c] <= 0, and their sum equal to the total when it is below kFar. Any
// such pair of vectors bounds from below the least total of a problem with higher costs in
// some columns or without some columns (weak duality), which needs no new assignment:
// raising column c's costs to cost'[r][c] allows column[c] = min over r of cost'[r][c] -
// row[r] when c must be used; dropping column c removes its term.
struct AssignmentDuals {
    std::array<int, 16> row{};
    std::array<int, 16> column{};
    unsigned used = 0;  // the columns the least assignment found uses (bit per column)
};
int min_cost_assignment(const AssignmentRow* cost, int rows, int columns, AssignmentDuals* duals = nullptr);

// Raises each column's price of `duals` (a feasible dual solution for `cost`) as far as the
// row prices allow, min(0, least cost[r][c] - row[r]): still feasible, its sum no lower.
// Returns that sum, a lower bound of the least total.
int raise_column_prices(const AssignmentRow* cost, int rows, int columns, AssignmentDuals& duals);

}  // namespace rebirth
