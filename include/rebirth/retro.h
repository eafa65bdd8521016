#pragma once

#include <string>
#include <vector>

#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

namespace rebirth {

// Whether the position `s` (its side to move included) is not proved illegal under `rules`
// (null: orthodox chess; otherwise rules unmoves_supported accepts) by looking `depth`
// single moves back: it passes the static analysis sound under the rules, and (depth > 0)
// it is the game array with White to move or has a retraction whose earlier position passes
// the same test with depth - 1. False is a proof of illegality: every legal position but the
// game array has a legal predecessor. True proves nothing. The static analysis: orthodox
// chess, legality.h's; under rebirth rules only what no rebirth, removal or Mars capture
// can undo: one king a side, at most 8 pawns and 16 units, and no more pieces of a walk
// than the game array's plus the missing pawns (units are never created; a capture only
// moves or removes them, a promotion turns a pawn into a piece).
bool may_be_legal(const Setup& s, int depth, const RuleSet* rules = nullptr);

// The last single move of the side that did not move in `position`, for each retraction
// whose earlier position may_be_legal(·, depth, rules) does not refute, in
// generate_unmoves' order. If the diagram is legal (what a retro problem asserts), its last
// move is among them; when only one is left it is proved.
std::vector<UnMove> possible_last_moves(const Setup& position, int depth, const RuleSet* rules = nullptr);

// The last n single moves (the side that did not move in `position` first, then
// alternately), each sequence the last move first: every retraction sequence whose positions
// pass the static analysis of may_be_legal, whose history is consistent (an en passant
// capture follows the double step it takes; a king or rook keeping a castling right has not
// moved, unless a rebirth put it back) and whose earliest position may_be_legal(·, depth,
// rules) does not refute.
std::vector<std::vector<UnMove>> possible_last_moves(const Setup& position, int n, int depth,
                                                     const RuleSet* rules = nullptr);

// The type of a last move in the janko.at notation of the retro reference data: `K-` (a
// king, no capture), `QxR` (a queen took a rook), `P-` / `P--` (single / double step),
// `PxB=N`, `P-=Q`, `ep`, `O-O`, `O-O-O`. `position` is the diagram after the move.
std::string last_move_type(const Setup& position, const UnMove& u);

// A last move written as its forward move in the notation of the retro reference data:
// unit letter (none for pawns), departure, `x` and the taken unit's letter (none for en
// passant) or `-`, arrival, `=` and the promotion letter, `ep`, `+` for check: `Kf5xNe5`,
// `Kb3xPc3+`, `f4xg3ep+`, `c7xNd8=R+`, `a2-a3`, `O-O`. Under rebirth rules (`rules`) the
// move's effects follow in Popeye's brackets (`Nc3xPd5[+bPd7]`, `h3xPg2[bPg2->g2]`).
// `position` is the diagram after the move.
std::string janko_notation(const Setup& position, const UnMove& u, const RuleSet* rules = nullptr);

}  // namespace rebirth
