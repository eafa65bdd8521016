#pragma once

#include "rebirth/goal.h"
#include "rebirth/position.h"

// A necessary condition for reaching mate or stalemate within a number of moves of each
// side, from empty-board distances (distance.h): help and series play skip every position
// that fails it.
//
// In the final position the defending king stands on some square k it can reach in time;
// for mate a unit of the attacker other than its king attacks k; and every square next to k
// is either attacked by the attacker (king included) or holds a unit of the defender. Each
// attack costs the attacker at least the fewest moves of one of its units to an attacking
// square (one unit may serve several squares, so the attacker's need is the largest of
// them; with at most 8 moves left the units are assigned exactly: each ends on one square
// attacking its share, the moves of all of them summed, less one when the attacker may still
// castle; with one move left, every unit stays but one, or castling puts king and rook on
// their castled squares); each block costs the defender at least the fewest moves of one of its units to
// the square, and distinct squares need distinct units, so the defender's need is the king's
// distance plus the sum (less one when it may still castle: castling moves two units at once).
// For stalemate, moreover, each pawn of the defender with an empty square ahead needs a move
// (its own, its capture, or a unit arriving ahead of it), one per pawn (castling excepted);
// and a knight, bishop, rook or queen of the defender stays immobile only with a defending
// unit on every square of its first step (one arrival each) or pinned across its lines, so
// one that needs more arrivals than the defender has moves and cannot be pinned in time
// (the defending king's reach on one side, a pinning unit's reach on the other) must be
// taken or moved: one move each.
//
// Sound in orthodox chess only (no condition that moves units by rebirth or otherwise, no
// fairy walks, a defending king on the board); elsewhere it never prunes.

namespace rebirth {

// Whether goal_may_be_reached can answer false for `pos`, goal g and `defender`: g is Mate or
// Stalemate, the position has no rules and no fairy walks, and the defender has a king.
bool goal_bound_applies(const Position& pos, Goal g, Color defender);

// False only when `defender` cannot be mated (g == Goal::Mate) or stalemated (Stalemate)
// after at most `attacker_moves` more moves of ~defender and `defender_moves` of defender;
// true whenever goal_bound_applies is false.
bool goal_may_be_reached(const Position& pos, Goal g, Color defender, int attacker_moves, int defender_moves);

}  // namespace rebirth
