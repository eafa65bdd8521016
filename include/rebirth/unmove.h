#pragma once

#include <vector>

#include "rebirth/move.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

// A retraction in orthodox chess: the last move, taken back. `move` is that move as the
// forward generator writes it (from, to, kind, promotion walk); `uncaptured` is the walk of
// the opponent's unit the move took (NO_WALK: it took nothing), put back on the capture
// square (the square behind `to` for en passant).
struct UnMove {
    Move move;
    Walk uncaptured = NO_WALK;
    friend bool operator==(const UnMove&, const UnMove&) = default;
};

// Every retraction of the side that did not move in `board` (the side to move is the other
// one) whose earlier position is a possible one: the retracted unit could make that move
// there (paths empty, pawns from their own side, double steps from the second rank,
// promotions from the seventh, en passant after the opponent's double step, castling from
// the king's and rook's game-array squares), the uncaptured unit is no king and no pawn on
// the first or last rank, and the opponent is not in check in the earlier position (it
// was the mover's turn). Orthodox units only (fairy units make this throw
// std::invalid_argument). Castling rights and en passant of the earlier position are not
// claimed: `retract` gives the board and the side to move.
void generate_unmoves(const Setup& position, std::vector<UnMove>& out);

// The position before u: u's unit back on its departure square (a pawn again after a
// promotion, king and rook home after castling), the uncaptured unit restored, the mover
// to move; no castling rights, no en passant square.
Setup retract(const Setup& position, const UnMove& u);

}  // namespace rebirth
