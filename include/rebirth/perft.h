#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rebirth/position.h"

namespace rebirth {

// Leaf count of the legal move tree to `depth` half-moves (bulk counting at the last ply).
std::uint64_t perft(Position& pos, int depth);

// Perft that checks Position::is_consistent() and key restoration after every do/undo.
// Throws std::logic_error on the first inconsistency. For tests.
std::uint64_t perft_checked(Position& pos, int depth);

// Perft with oneTBB work stealing over `threads` threads (0 = all cores). Same counts as perft.
std::uint64_t parallel_perft(const Position& pos, int depth, int threads = 0);

// Per legal first move: its Popeye notation and its subtree leaf count, in generation order.
std::vector<std::pair<std::string, std::uint64_t>> perft_divide(const Position& pos, int depth, int threads = 0);

}  // namespace rebirth
