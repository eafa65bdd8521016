#pragma once

#include "rebirth/bitboard.h"
#include "rebirth/move.h"
#include "rebirth/position.h"

namespace rebirth {

// The entry points of the rules layer (src/rules/movegen_rules.cpp) that the core's move
// generator calls for a position under Circe-family rules: declared here so that the core
// includes no header of a higher layer; defined there.

// Legal moves of the side to move under the position's rules.
void generate_rules_legal(const Position& pos, MoveList& list);

// The same moves found the slow way, every pseudo-legal move played and the check rule
// tested, without the fast paths of generate_rules_legal: the reference its tests compare with.
void generate_rules_legal_by_make(const Position& pos, MoveList& list);

// Whether the side to move has a legal move under the position's rules (stops at the first).
bool rules_has_legal_move(const Position& pos);

// Whether the non-captures of the side to move are exactly the orthodox ones, with orthodox
// legality: rebirth-type rules with orthodox check, no Mars/Anti-Mars departures, no pending
// Parrain rebirth, nothing buried that could erupt, no fairy walks.
bool quiet_moves_orthodox(const Position& pos);

// The orthodox check state of the side to move's king: the units giving check and the
// side's own pinned units (both 0 without a king).
struct KingSafety {
    Bitboard checkers = 0;
    Bitboard pinned = 0;
};

// Appends the legal captures (with every rebirth choice) of the side to move; `safety` is
// its king's state, already computed by the non-capture generator.
void append_rules_captures(const Position& pos, MoveList& list, const KingSafety& safety);

// Circe Assassin alone (Rex Exclusive, classic squares without adapters) with plain effects:
// the orthodox-legal non-captures are the candidates (an attacked king is in check), which
// filter_assassin_quiet narrows to those leaving no unit reborn on the king's square attacked,
// and append_assassin_captures adds the legal captures.
bool assassin_plain(const Position& pos);

// Keeps, of list[begin..], the non-captures (castling included) that are legal under
// assassin_plain rules; the list holds the orthodox-legal ones.
void filter_assassin_quiet(const Position& pos, MoveList& list, int begin);

// Appends the legal captures (en passant included) of the side to move under assassin_plain
// rules, each with its rebirth (the occupant of the rebirth square removed); `safety` is the
// king's orthodox state, from the non-capture generator.
void append_assassin_captures(const Position& pos, MoveList& list, const KingSafety& safety);

}  // namespace rebirth
