#pragma once

#include <optional>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/setup.h"

// Constructive proof games: some orthodox game from the game array to a diagram, of any
// length. Not a proof-game solver (proof_search.h finds every shortest game): a best-first
// search on moves played + weight * estimate, the estimate being each side's moves needed
// (proof_bound.h, fixed units as walls), the captures each side must still make, and (in
// some variants) the way of its units to the units it must take, on an empty board or round
// the fixed units; positions whose first-rank corridors cannot come into the target's order
// are dropped (corridors_allow). Near the diagram (the bounds allow 2 more half-moves) an
// exact depth-first search within those bounds looks for the last 2 to 4 moves. The variants
// (three estimates, two weights, and positions of equal priority taken in the order found or
// in an order set by a hash of the position; then two lighter weights; then three going
// round the fixed units) run in rounds, each with twice the nodes of the round before.
// It finds long games in positions the exhaustive search cannot reach (the legal positions of
// retro analysis, with dozens of captures). A game found proves the diagram legal; none found
// proves nothing.

namespace rebirth {

struct BuildLimits {
    long max_nodes = 400000;  // positions expanded per search at most (the last round's)
    double seconds = 10;      // 0: no limit (then the result depends only on max_nodes)
    // Weight of the estimate against the moves played (f = moves played + weight * estimate):
    // higher finds games faster, lower finds shorter ones.
    int weight = 4;
    // Threads that search the variants of a round at once (0: all cores). Without a time limit
    // the game found is the same for every count.
    int threads = 1;
};

// A game from the game array (White to move) whose last position has `target`'s units and
// side to move (castling and en passant rights aside: a diagram without them), every move
// legal where it is played. Orthodox chess only. Nothing when none was found within the
// limits, or when the target holds a unit without proof-game bounds (fairy walks).
// `frozen`: squares whose units never move (no move from or onto them, no castling with a rook
// there): the game-array units stay on them all game.
std::optional<std::vector<Move>> build_proof_game(const Setup& target, const BuildLimits& limits = {},
                                                  Bitboard frozen = 0);

// The same search from `from` (an orthodox position with `from`'s side to move) instead of the
// game array: a line of moves legal from `from` that reaches `target`'s units and side to move.
std::optional<std::vector<Move>> build_game_between(const Setup& from, const Setup& target,
                                                    const BuildLimits& limits = {}, Bitboard frozen = 0);

}  // namespace rebirth
