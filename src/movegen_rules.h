#pragma once

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// Pseudo-legal moves of `side` under the position's rules, one Move per choice the move
// makes (rebirth square and walk, Mars departure). Captures only of units on `targets`;
// non-captures (and castling, en passant for the side to move) only when `quiet`.
void generate_rule_moves(const Position& pos, Color side, Bitboard targets, bool quiet, MoveList& list);

// The check rule: whether the opponent of c could capture c's king (or, under Assassin,
// remove it by a rebirth) with a move the rules allow, ignoring the opponent's own king.
bool king_capturable(const Position& pos, Color c);

// Legal moves of the side to move under the position's rules.
void generate_rules_legal(const Position& pos, MoveList& list);

}  // namespace rebirth
