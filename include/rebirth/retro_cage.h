#pragma once

#include "rebirth/setup.h"
#include "rebirth/types.h"

// Cages: an orthodox position whose units near the kings can never have come from their
// game-array squares, however the rest of the board was played. Sound in orthodox chess only
// (a rebirth moves units the retractions below do not move back).
//
// The proof is a retraction search that follows only some units (those on a region of the
// board, every pawn on its own second rank, which never moves again, and every king and
// rook that keeps a castling right) and relaxes
// everything it cannot see:
// - squares not held by a followed unit count as empty (a unit there would only block);
// - a unit that retracts off the region is no longer followed ("hidden"), nor is a unit a
//   hidden unit's retraction brings back; a second search leaves hidden the units any
//   retraction brings back (fewer positions, often the one that closes); a third one besides
//   hides at once every unit that may leave the region in one retraction, as Retractor's cage
//   verification removes it (fewer positions again; hiding a unit only forgets it);
// - a side with a hidden unit (or one the other side's hidden unit may have taken) may always
//   retract a move of a hidden unit instead (a pass);
// - en passant history is not checked, nor are line checks that a unit between could block.
// A king and rook that keep a castling right in the position (Setup::castling), or whose
// castling a retraction takes back, stood on their game-array squares from the start: they
// take no move back.
// What it keeps: the sides alternate; a retracted move may not leave the side that did not
// move in a check no unit can block (a king, knight or pawn next to it, or a queen, rook or
// bishop on an adjacent square of its line); a side to move in such a check was given it by
// the unit that checks, whose move is then the next retraction (two such checkers: no move
// gives both); the units a retraction brings back stay within 16 a side, 8 pawns, and the
// pieces beyond the game array's within the missing pawns, counting the followed units and
// those known to be hidden (the second search counts no unit it leaves hidden); the followed
// pawns each come from a file of their own whose pawn is no longer on its second rank, at
// most one file a rank away; each followed piece can still get, never onto or past a unit
// that does not move again (pawns on their second rank, the kings and rooks above), to a
// game-array square of its walk, to its last rank (a pawn promoted there) or off the region.
// Every real history of the position, read backwards, is then a
// history of the followed units, and it reaches the game array, where each followed unit
// stands on a game-array square of its own colour and walk (or has left the region before).
// When no relaxed history from the position gets there, the position is illegal.

namespace rebirth {

// Whether the orthodox position `s` (with its side to move) is proved illegal by the cage
// search above, for some region tried (the squares within one, two and three king steps of
// the kings, the squares within one and two of the units that have no retraction in s, and
// the latter's first with the kings' first; where those units form groups apart, the squares
// within one of each group), each search visiting at most `max_states` possible positions of
// followed units. False proves nothing.
bool cage_refutes(const Setup& s, long max_states = 1000);

// A wider look, for the few last moves a first look leaves (retro.h): cage_refutes with
// `max_states` positions a region, then each king's squares within one and two king steps of
// it alone (kings apart), the three ranks at an edge holding a king with twice as many,
// then the region within two king steps of the kings (the
// one whose units most often close a cage) with six times as many, then the third search
// alone on the units and the squares next to them with fifty times as many, then alone on
// the half of the board (ranks 1-4 or ranks 5-8) that holds both kings, if one does, with
// thirty times as many, last the exact search (cage_refutes_exact) with eight times as many on
// the squares within one king step of the kings, then on those and the squares from which the
// pieces on them can have come by one step of their walk, then on the squares within two
// king steps. False proves nothing.
bool cage_refutes_wide(const Setup& s, long max_states);

// The search on one region (`region`: the squares whose units are followed): whether it
// proves `s` illegal within `max_states` visited positions. False proves nothing.
bool cage_refutes_in(const Setup& s, Bitboard region, long max_states);

// The search on `region` where the squares of `exact` (those of the region off the fourth
// and fifth ranks, where a hidden pawn may take en passant) are known exactly: such a square
// with no followed unit is empty, so a line check whose squares between are all exact is a
// check no unit blocks. A unit leaving an exact square for a square where it is not followed
// is taken back as a unit of the side whose move is retracted coming back onto the empty
// exact square (followed from then on); the units retractions bring back are followed, the
// kings wherever they go, and no unit is hidden at once. Hidden units are not counted, but
// captures are: each side takes back at most the units the other side misses, its pieces at
// most those its pawns' files leave (a bishop shut in at home by its side's unmoved pawns and
// gone was taken there by a piece, counted at the start), and a side that promoted nothing
// (legality.h's promoted_nothing) has no piece beyond the game array's. Up to eight pieces of
// s are tracked where they go: one whose promotion on a square of its last rank the static
// analysis of s denies (LegalityMarks::promoted_unit) never takes its promotion back there.
// It proves what a blocked line check needs: a unit that shielded a king came there and left
// again (janko.at's JR-D-130: with f3xBe4 taken back, the unit that shielded White's king on
// h1 from Black's queen on f1 when Black's king came to f2 can neither leave g1 and h1 nor
// have been taken there), and orders of last arrivals (JR-D-151: with a2xNb1=B taken back,
// White's bishop on g8 was promoted on e8, not g8, so it came to g8 over f7 before White's
// king came there, and neither the king nor the queen on f8 can have come last). False
// proves nothing.
bool cage_refutes_exact(const Setup& s, Bitboard region, Bitboard exact, long max_states);

// Whether the cage search proves that the piece on q (no king), standing on its side's last
// rank, came there by its promotion as its last move: the search on that rank and the two in
// front of it, in which that unit may not take a promotion back as its first retraction (any
// other retraction first, then anything), finds no relaxed history within `max_states`
// positions. Every legal history then ends that unit's moves with a promotion onto q (one
// that never moved stands on its game-array square, which the search reaches). False proves
// nothing, and is said at once for an empty square, a king, a pawn or a piece off its last
// rank. The static analysis takes it as a mark (LegalityMarks::promoted_here).
bool promoted_on_its_square(const Setup& s, Square q, long max_states);

}  // namespace rebirth
