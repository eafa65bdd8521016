#pragma once

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// The legal moves of `pos` in the order Popeye tries and prints them: units from a1 to h8,
// each unit's moves in reverse generation order (queen lines, then knight leaps, farther
// squares first), promotions Q S R B. Solutions are printed in this order.
void popeye_ordered_moves(const Position& pos, MoveList& list);

}  // namespace rebirth
