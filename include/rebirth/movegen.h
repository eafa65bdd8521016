#pragma once

#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// Every legal move of the side to move (orthodox rules and the fairy walks of walk.h):
// castling, en passant, all promotions. Fills `list` (cleared first).
void generate_legal(const Position& pos, MoveList& list);

// generate_legal's moves m whose m.to is on to[m.from] (castling: the king's destination).
void generate_legal_to(const Position& pos, const Bitboard* to, MoveList& list);

// Under rules (Circe family): the legal moves found by playing every pseudo-legal move and
// testing the check rule, without generate_legal's fast paths (pins, check tests on bitboards,
// Mars and Assassin shortcuts): the reference the tests compare generate_legal with. Without
// rules, generate_legal itself.
void generate_legal_by_make(const Position& pos, MoveList& list);

// Every pseudo-legal move of the side to move under orthodox rules (moves that may leave the
// mover's king attacked, captures of a king included). Fills `list` (cleared first).
void generate_pseudo_legal(const Position& pos, MoveList& list);

// Number of legal moves, without materialising them where a faster count exists.
int count_legal(const Position& pos);

// Whether the side to move has a legal move (stops at the first one under Circe rules).
bool has_any_legal_move(const Position& pos);

// Whether the king of the side to move can step to a square next to it, not held by its own
// units, that no enemy unit attacks once the king has left its square (its legal steps
// without rules, castling aside); with `quiet`, only a step that gives no check (gives_check)
// and, under rules, to an empty square (a capture there brings a unit back).
bool has_safe_king_step(const Position& pos, bool quiet);

// Whether legal move m of the side to move checks the opponent's king, without playing it:
// exact without rules (fairy walks are asked on the board after the move); where
// checks_foreseeable(pos) holds under rules, a move it says false of gives no check.
bool gives_check(const Position& pos, const Move& m);

// Whether gives_check rules out every move giving no check: positions without rules, and
// Circe-family rules whose non-captures are orthodox and whose captures only bring back the
// captured unit (quiet_moves_orthodox: a unit of the side that would be in check, which can
// only screen a check, never give one), with no effect that takes a unit off the board.
bool checks_foreseeable(const Position& pos);

// Whether `m` is among the legal moves of `pos`.
bool is_legal(const Position& pos, const Move& m);

}  // namespace rebirth
