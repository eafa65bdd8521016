#pragma once

#include <string>
#include <vector>

#include "rebirth/setup.h"
#include "rebirth/unmove.h"

namespace rebirth {

// Whether the orthodox position `s` (its side to move included) is not proved illegal by
// looking `depth` single moves back: it passes the static analysis of legality.h, and
// (depth > 0) it is the game array with White to move or has a retraction whose earlier
// position passes the same test with depth - 1. False is a proof of illegality: every
// legal position but the game array has a legal predecessor. True proves nothing.
bool may_be_legal(const Setup& s, int depth);

// The last single move of the side that did not move in `position`, for each retraction
// whose earlier position may_be_legal(·, depth) does not refute, in generate_unmoves' order.
// If the diagram is legal (what a retro problem asserts), its last move is among them;
// when only one is left it is proved.
std::vector<UnMove> possible_last_moves(const Setup& position, int depth);

// The last n single moves (the side that did not move in `position` first, then
// alternately), each sequence the last move first: every retraction sequence whose positions
// pass the static analysis of legality.h, whose history is consistent (an en passant capture
// follows the double step it takes; a king or rook keeping a castling right has not moved)
// and whose earliest position may_be_legal(·, depth) does not refute.
std::vector<std::vector<UnMove>> possible_last_moves(const Setup& position, int n, int depth);

// The type of a last move in the janko.at notation of the retro reference data: `K-` (a
// king, no capture), `QxR` (a queen took a rook), `P-` / `P--` (single / double step),
// `PxB=N`, `P-=Q`, `ep`, `O-O`, `O-O-O`. `position` is the diagram after the move.
std::string last_move_type(const Setup& position, const UnMove& u);

// A last move written as its forward move in the notation of the retro reference data:
// unit letter (none for pawns), departure, `x` and the taken unit's letter (none for en
// passant) or `-`, arrival, `=` and the promotion letter, `ep`, `+` for check: `Kf5xNe5`,
// `Kb3xPc3+`,
// `f4xg3ep+`, `c7xNd8=R+`, `a2-a3`, `O-O`. `position` is the diagram after the move.
std::string janko_notation(const Setup& position, const UnMove& u);

}  // namespace rebirth
