#pragma once

#include "rebirth/legality.h"
#include "rebirth/setup.h"

// The order in which the units came to their squares: a retro analyst's argument on the last
// move of each unit, in orthodox chess only (no rebirth moves a unit).
//
// Each unit X on the board either never moved (a unit on a game-array square of its colour and
// walk; a pawn on its own second rank, or a king or rook keeping a castling right, always) or
// made a last move at some time t(X), from a square S its walk moves from onto its square (a
// piece on its last rank: also its promotion, from the pawn's square). Then:
// - a unit Y that stands now on S, or on a square between S and X's square (a rider's line, a
//   pawn's double step), came there for good after t(X): t(Y) > t(X), impossible when Y never
//   moved;
// - if X on S (a pawn on the square of its promotion) attacked the square the other side's king
//   stands on now, and the attack cannot be blocked (a pawn, a knight, a king, or a queen, rook
//   or bishop next to it), the king came there after t(X): had it been there before, it stepped
//   into check, or X's move onto S checked it and the king's side had no way out (the king
//   stayed, X stayed, nothing can step between), so t(K) > t(X), impossible when it never moved.
// A king that castled came from its game-array square with the rook from the corner (and over
// b1 or b8 on the queen's side): units on those squares came later; not on the rook's square
// beside the king, where the castling rook may still stand (moved at the same time).
// Constraints left out only allow more orders: sound.
// When no choice of a last move for each unit leaves these constraints an order (no cycle
// t(X) < t(Y) < ... < t(X), no unit that never moved coming after another), the position is
// illegal. JR-D-136 (janko.at's duplex record, Keym) with h2xRg1=Q taken back: the black king on
// e2 and the units round it in the corner each came last from a square one of the others holds,
// or the knight on h1 came from g3, attacking the king on e2 that had come there before.

namespace rebirth {

// Whether the orthodox position `s` is proved illegal by the order of the units' last moves,
// the search trying at most `max_nodes` partial choices. False proves nothing (and fairy units
// are not worked out: false).
bool order_refutes(const Setup& s, long max_nodes = 200000);

// What every order left says of the units: `frozen`, those that never moved (each choice of a
// last move for one leaves no order); `promoted_here`, the pieces on their last ranks whose last
// move was their promotion there (each other choice leaves none); `taken_home`, game-array
// squares of queens, rooks, bishops and knights whose unit never moved and was taken there by
// a piece: the squares its first steps start on and those from which a pawn of the other side
// takes onto it held by units of its side that never moved or by pawns whose one move (every
// option left) started there, and no order left where the first of those pawns moved before
// every last move that starts on, passes or ends on the square (JR-D-136 before e7xRf8=Q: f8
// entered while e7 and g7 held Black's pawns). As the static analysis takes them (legality.h's
// LegalityMarks). `refuted`: no order at all (order_refutes). Each search within `max_nodes`
// choices; one that runs out proves nothing.
struct OrderFacts {
    bool refuted = false;
    LegalityMarks marks;
};
OrderFacts order_facts(const Setup& s, long max_nodes = 200000);

}  // namespace rebirth
