#pragma once

#include "core/rule_hooks.h"
#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// The rules generator's other entry points, those the core's generator calls, are in
// core/rule_hooks.h.

// Pseudo-legal moves of `side` under the position's rules, one Move per choice the move
// makes (rebirth square and walk, Mars departure). Captures only of units on `targets`;
// non-captures (and castling, en passant for the side to move) only when `quiet`.
// `by_make`: no shortcut (Circe Cage squares tested by playing the reborn unit's moves).
void generate_rule_moves(const Position& pos, Color side, Bitboard targets, bool quiet, MoveList& list,
                         bool by_make = false);

// The check rule: whether the opponent of c could capture c's king (or, under Assassin,
// remove it by a rebirth) with a move the rules allow, ignoring the opponent's own king.
bool king_capturable(const Position& pos, Color c);

}  // namespace rebirth
