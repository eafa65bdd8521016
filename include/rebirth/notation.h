#pragma once

#include <string>

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// Popeye's English long algebraic notation of a legal move in `pos` (before it is played):
// "Sb1-c3", "e5*d6 ep.", "e7-e8=Q", "0-0", "0-0-0". With `with_check` a move that gives check
// (mate included) gets " +" appended, as in Popeye's move lists.
std::string move_to_popeye(const Position& pos, const Move& m, bool with_check = false,
                           Language lang = Language::English);

}  // namespace rebirth
