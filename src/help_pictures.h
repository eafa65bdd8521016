#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "exact_set.h"
#include "rebirth/position.h"

namespace rebirth {

// Target-position ("intelligent") search for help play ending in mate, in orthodox chess.
//
// A mate picture fixes the mated king's final square k, one checking unit of the mating side
// on a square attacking k (the squares between them empty), and for every flight of k not
// attacked on an empty board by the units already fixed: a defending unit standing on it or
// one more attacking unit on a square attacking it (the squares between empty). Every unit
// of the picture has a final square (pawns: staying pawns, promoted, or any walk for a
// block); the others are free. Every final mate position fits some picture, so searching
// each picture with its budgets (the empty-board distances of its units to their squares,
// summed per side, and one move per occupied square that must be empty) finds every play.
//
// The search records the positions on every play found; help play then follows them alone.
// Sound where distance.h's distances are: orthodox chess, no fairy units.
struct MateGuide {
    ExactSet good;                  // guide_key of every position on a play found
    std::size_t pictures = 0;       // pictures searched (those no other one's demands are part of)
    std::size_t pictures_made = 0;  // pictures made
};

// The key of pos with `remaining` half-moves of the play left, as MateGuide::good holds it.
void guide_key(const Position& pos, int remaining, std::string& out);

// Fills guide.good for the help plays of `len` half-moves from root whose last half-move, by
// `goal_side`, mates (a move of the goal side mating earlier ends a play: it is not followed);
// with `series`, for the series of `len` moves of the side to move (the goal side passing,
// never left in check) followed by the goal side's mating move (ser-h#), keyed by the
// series moves left. `visit` is called for every node searched (it may throw to stop).
// Returns false, the guide then unusable, where the search does not apply (rules, fairy
// units, no king to mate) or would need more than `max_pictures` pictures.
bool build_mate_guide(const Position& root, int len, bool series, Color goal_side, MateGuide& guide,
                      const std::function<void()>& visit, std::size_t max_pictures = 20000);

}  // namespace rebirth
